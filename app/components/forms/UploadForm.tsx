import { useEffect, useRef, useState, type ComponentProps, type FormEvent } from "react";
import { Form, useNavigate, useSubmit } from "react-router";
import { useTranslation } from "~/i18n";
import { RECEIPT_MAX_BYTES } from "~/domain/receipt-file";
import { SendingContext, type Sending } from "./upload-context";

/** The share sent, rounded down to a quarter: what is announced (never at every percent). */
const quarterOf = (percent: number) => Math.floor(percent / 25) * 25;

/**
 * With JavaScript, the files go by XMLHttpRequest, whose upload reports what it has sent (fetch does not);
 * the answer (a redirect to the same step, or to the next one) is then opened by the router, as a plain
 * submission's would be. A refusal (400) is sent again the router's way, so that the server's words show
 * on the field as without JS; a file over the limit goes that way at once (the server refuses it).
 */
function useUpload(action: string, onSubmit: ComponentProps<typeof Form>["onSubmit"]) {
  const navigate = useNavigate();
  const submit = useSubmit();
  const [sending, setSending] = useState<Sending | null>(null);
  const send = (event: FormEvent<HTMLFormElement>) => {
    // A second press while the files go: nothing more is sent.
    if (sending) return event.preventDefault();
    onSubmit?.(event);
    if (event.defaultPrevented) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const body = new FormData(event.currentTarget, submitter);
    const files = [...body.values()].filter((value): value is File => value instanceof File && value.size > 0);
    if (files.length === 0 || files.some((file) => file.size > RECEIPT_MAX_BYTES)) return;
    event.preventDefault();
    const intent = submitter instanceof HTMLButtonElement && submitter.name ? submitter.value : null;
    const plain = () => {
      setSending(null);
      void submit(body, { method: "post", action, encType: "multipart/form-data", preventScrollReset: true });
    };
    const xhr = new XMLHttpRequest();
    xhr.open("POST", new URL(action, window.location.href).toString());
    xhr.upload.onprogress = (progress) => {
      if (progress.lengthComputable)
        setSending({ intent, percent: Math.min(100, Math.floor((progress.loaded * 100) / progress.total)) });
    };
    xhr.onload = () => {
      if (xhr.status >= 400 || !xhr.responseURL) return plain();
      const url = new URL(xhr.responseURL);
      void Promise.resolve(navigate(`${url.pathname}${url.search}`, { preventScrollReset: true })).finally(() =>
        setSending(null),
      );
    };
    xhr.onerror = plain;
    setSending({ intent, percent: 0 });
    xhr.send(body);
  };
  return { sending, send };
}

/**
 * The form of a wizard's step that sends files (the refund's receipt, the subscription's documents): a plain
 * multipart form without JavaScript, as before; with it, the upload's progress inside the form, where the
 * person is (issue 31 §4): a bar with its percentage and "Envoi en cours…", the submit button saying so too.
 * Screen readers hear it in steps (issue 34): a polite status says the start, each quarter, then the end; the
 * bar and its figure, which move at nearly every percent, are drawn for the eye only (a progress bar's every
 * change is spoken or beeped by screen readers).
 */
export function UploadForm({
  action,
  onSubmit,
  children,
  ...props
}: Omit<ComponentProps<typeof Form>, "method" | "encType" | "action"> & { action: string }) {
  const { t } = useTranslation();
  const { sending, send } = useUpload(action, onSubmit);
  // The bar is drawn under the button that was pressed: brought into view when the upload starts.
  const progress = useRef<HTMLDivElement>(null);
  const started = sending !== null;
  useEffect(() => {
    if (started) progress.current?.scrollIntoView({ block: "nearest" });
  }, [started]);
  return (
    <Form {...props} method="post" action={action} encType="multipart/form-data" onSubmit={send}>
      <SendingContext.Provider value={sending}>
        {/* Always in the page, so that what is put into it is announced. */}
        <p className="visually-hidden" role="status">
          {sending
            ? sending.percent === 100
              ? t("wizardKit.upload.sent")
              : t("wizardKit.upload.announce", { percent: quarterOf(sending.percent) })
            : null}
        </p>
        {children}
        {sending ? (
          <div className="upload-progress" ref={progress}>
            <p className="upload-progress__label">{t("wizardKit.upload.sending")}</p>
            <div className="upload-progress__bar" aria-hidden="true">
              <progress max={100} value={sending.percent} />
              <span>{t("wizardKit.upload.percent", { percent: sending.percent })}</span>
            </div>
          </div>
        ) : null}
      </SendingContext.Provider>
    </Form>
  );
}
