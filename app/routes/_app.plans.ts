import { redirect } from "react-router";

export const loader = () => redirect("/plans/integrations");
