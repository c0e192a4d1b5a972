import { redirect } from "react-router";

/** Spec 001 §2.1: transactions live on the card page. */
export const loader = () => redirect("/cards");
