import { getFormProps } from "~/components/forms/useForm";
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/index";
import { ErrorSummary, TextArea, useForm } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Panel } from "~/components/Panel";
import { CrispChat } from "~/components/CrispChat";
import { Waiting } from "~/components/Waiting";
import { useRevalidateEvery } from "~/components/useRevalidateEvery";
import { NoScript } from "~/components/LightVersion";
import { useHydrated } from "~/components/useHydrated";
import { formatDateTime } from "~/domain/dates";
import { supportMessageSchema, type SupportMessageForm } from "~/domain/schemas";
import { useTranslation } from "~/i18n";
import { accountContext } from "~/routes/+shared/auth.server";
import { parseForm, refuse } from "~/routes/+shared/forms.server";
import { panelBack } from "~/routes/+shared/back.server";
import { internalPath } from "~/routes/+shared/redirects.server";
import { redirectWithFlash, refusal } from "~/routes/+shared/request.server";
import { getPlatform } from "~/.server/platform";
import { displayName } from "~/.server/services/accounts";
import {
  awaitingAnswer,
  sendSupportMessage,
  supportCardContext,
  supportConversation,
} from "~/.server/services/support";

/**
 * The support chat (issue 16 §5) as a side panel over the page it was opened from (`?back=`, a page of
 * the signed-in portal, /cards otherwise), about a card when `?card=` names one of the user's cards (the
 * delivery panel's "problem" link). Sandbox: the conversation is kept by the portal, posted as a form and
 * shown as text. While the user waits for an answer (`awaitingAnswer`), the page looks again by itself
 * (`Waiting`, decision 0067): without JS a meta refresh every 20 s, on a page that then offers "write another
 * message" instead of a text box (a reload would lose what is being typed; `?compose=1` gives the box back,
 * without the refresh); with JS the conversation is read again every 15 s while the tab is visible, waiting
 * or not, and the box is always there.
 * Crisp: the widget is loaded with JS only. docs/decisions/0032.
 */
function queryOf(request: Request) {
  const url = new URL(request.url);
  const card = url.searchParams.get("card")?.slice(0, 64) || null;
  // Where "Fermer" leads: the panels' one rule (a signed-in page of the portal, never the chat itself).
  const compose = url.searchParams.get("compose") === "1";
  return { back: panelBack(url.searchParams.get("back"), { self: "/support" }), card, compose };
}

function supportPath(back: string, card: string | null, extra: Record<string, string> = {}) {
  return internalPath("/support", {}, { search: { back, ...(card ? { card } : {}), ...extra } });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const account = context.get(accountContext);
  const { db, env, supportChat } = await getPlatform();
  const { back, card: cardId, compose } = queryOf(request);
  const card = cardId ? await supportCardContext(db, account.id, cardId) : null;
  if (cardId && !card) throw refusal(404, "support.errors.cardNotFound");
  const messages = await supportConversation({ db, supportChat }, account.id);
  return {
    back,
    card,
    // Without JS, while waiting: the page refreshes itself, unless the person asked for the text box.
    selfRefresh: supportChat.kind === "portal" && awaitingAnswer(messages, new Date()) && !compose,
    here: supportPath(back, card?.id ?? null),
    composePath: supportPath(back, card?.id ?? null, { compose: "1" }),
    kind: supportChat.kind,
    browserChat: supportChat.browserChat(account.id),
    user: { email: account.email, name: displayName(account) },
    supportUrl: env.SUPPORT_URL,
    messages: messages.map((m) => ({
      id: m.id,
      author: m.author,
      // The sandbox's automatic answer is a catalogue key, translated when shown.
      body: m.body,
      translated: m.automatic,
      createdAt: m.createdAt,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const account = context.get(accountContext);
  const { db, supportChat } = await getPlatform();
  const { back } = queryOf(request);
  const submission = parseForm(await request.formData(), supportMessageSchema);
  if (submission.status !== "success") return refuse(submission);
  const card = submission.value.card ?? null;
  const result = await sendSupportMessage({ db, supportChat }, account.id, submission.value.message, card);
  if (result.kind === "notFound") throw refusal(404, "support.errors.cardNotFound");
  if (result.kind === "unavailable") return refuse(submission, { formErrors: ["support.errors.sendFailed"] });
  return redirectWithFlash(request, supportPath(back, card), { kind: "success", message: "support.sent" });
}

/**
 * With JS, once a message is sent (the form posted, its redirect followed, nothing refused), focus goes to the
 * text box, emptied and brought into view: the next thing a person does in a chat is write again, and the
 * « Envoyer » button they pressed had slid out of view under the new messages, with nothing left to send
 * (RGAA 12.8, WCAG 2.4.3 and 2.4.11). The message and the answer are said by the conversation's log and
 * « Message envoyé. » by the flash, politely, so focus does not need to go to them. A refusal keeps the
 * error summary's focus. Without JS the page loads again at its top, where the flash is.
 */
function useWriteAgainAfterSending(fieldId: string) {
  const navigation = useNavigation();
  const posted = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting" && navigation.formAction?.startsWith("/support")) posted.current = true;
    if (navigation.state !== "idle" || !posted.current) return;
    posted.current = false;
    const box = document.getElementById(fieldId);
    // Refused: the error summary has taken focus, and keeps it.
    if (document.activeElement?.closest(".error-summary") || !(box instanceof HTMLTextAreaElement)) return;
    box.value = "";
    box.focus({ preventScroll: true });
    box.scrollIntoView({ block: "nearest" });
  }, [navigation.state, navigation.formAction, fieldId]);
}

/** With JS, how often the open conversation is read again (only while the tab is visible). */
export const RECHECK_SECONDS = 15;

export default function Support({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { back, card, kind, browserChat, messages, supportUrl, user, selfRefresh, here, composePath } = loaderData;
  const hydrated = useHydrated();
  const [form, fields] = useForm<SupportMessageForm>({ id: "support", lastResult: actionData });
  const error = Boolean(fields.message.errors?.length);
  useWriteAgainAfterSending(fields.message.id);
  // With JS: new messages are fetched while the panel is open, paused while the tab is hidden, and at
  // once when it shows again; while an answer is awaited `Waiting` does it. Revalidating keeps the text box
  // as it is (nothing typed is lost).
  useRevalidateEvery(RECHECK_SECONDS * 1000, here, kind === "portal" && !selfRefresh);
  const cardLabel = card
    ? t(card.type === "virtual" ? "nav.virtualCard" : "nav.physicalCard", { lastFour: card.lastFour })
    : null;
  return (
    <>
      <PageHeader title={t("support.title")} namesDocument={false} />
      <Panel id="support" title={t("support.title")} closeTo={back} error={error}>
        {cardLabel ? <p>{t("support.about", { card: cardLabel })}</p> : null}
        {kind === "browser" && browserChat ? (
          <>
            <CrispChat settings={browserChat} user={user} context={cardLabel} />
            <NoScript>
              <p>
                {t("support.needsJavascript")} <a href={supportUrl}>{t("support.contact")}</a>
              </p>
            </NoScript>
          </>
        ) : (
          <>
            <p>{t("support.intro")}</p>
            <ErrorSummary form={form} fields={[fields.message]} />
            {/* A log (implicitly polite): each message added is said once, never the whole conversation again. */}
            <div role="log" aria-label={t("support.conversationLabel")}>
              {messages.length === 0 ? (
                <p>{t("support.empty")}</p>
              ) : (
                <ol className="chat">
                  {messages.map((message) => (
                    <li key={message.id} className={`chat__message chat__message--${message.author}`}>
                      <p className="chat__meta">
                        <strong>{t(message.author === "user" ? "support.you" : "support.support")}</strong>,{" "}
                        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                      </p>
                      {/* Text, never HTML: React escapes it; line breaks kept by CSS. */}
                      <p className="chat__body">{message.translated ? t(message.body) : message.body}</p>
                    </li>
                  ))}
                </ol>
              )}
            </div>
            {selfRefresh ? (
              <Waiting seconds={RECHECK_SECONDS} checkNowTo={here}>
                <p>{t("support.waiting")}</p>
              </Waiting>
            ) : null}
            {selfRefresh && !hydrated ? null : (
              // Without JS while waiting, `Waiting` offers to check now.
              <p>
                <Link to={here} className="link-action" preventScrollReset>
                  {t("support.refresh")}
                </Link>
              </p>
            )}
            {selfRefresh && !hydrated ? (
              // Without JS this page reloads by itself: no text box on it, so nothing typed is ever lost.
              <p>
                <Link to={composePath} className="button">
                  {t("support.writeAnother")}
                </Link>
              </p>
            ) : (
              <Form method="post" {...getFormProps(form)} noValidate>
                {card ? <input type="hidden" name="card" value={card.id} /> : null}
                <TextArea
                  required
                  field={fields.message}
                  label={t("support.message")}
                  hint={t("support.hint")}
                  rows={4}
                />
                <div className="actions">
                  <button type="submit" className="button">
                    {t("support.send")}
                  </button>
                </div>
              </Form>
            )}
          </>
        )}
      </Panel>
    </>
  );
}
