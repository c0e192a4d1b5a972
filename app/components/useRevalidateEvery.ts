import { useEffect } from "react";
import { useRevalidator } from "react-router";

/**
 * With JavaScript, a page waiting on the server (a receipt being read) asks for its data again every `ms`
 * milliseconds, never while a request is already under way; without it, NoScriptRefresh does the same.
 */
export function useRevalidateEvery(ms: number) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [revalidator, ms]);
}
