import { z } from "zod";

/** The longest survey answer kept (a 10 KB answer is refused, never truncated). */
export const MAX_FEEDBACK_LENGTH = 2000;

/** The survey's answer (spec 000 §3 "Feedback survey: needs non-blank trimmed text"). */
export const feedbackSchema = z.object({
  surveyId: z.string({ error: "feedback.errors.survey" }).trim().min(1, "feedback.errors.survey").max(200),
  response: z
    .string({ error: "feedback.errors.required" })
    .trim()
    .min(1, "feedback.errors.required")
    .max(MAX_FEEDBACK_LENGTH, "feedback.errors.tooLong"),
});
export type FeedbackForm = z.infer<typeof feedbackSchema>;
