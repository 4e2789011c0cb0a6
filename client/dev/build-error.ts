// Development only: a build error over the page (file, line and esbuild's message), until the
// next build succeeds. The server keeps serving the last good build meanwhile.

const ID = "verge-build-error";

export interface BuildError {
  file: string | null;
  line: number | null;
  message: string;
}

export function showBuildError({ file, line, message }: BuildError): void {
  let panel = document.getElementById(ID);
  if (!panel) {
    panel = document.createElement("div");
    panel.id = ID;
    panel.setAttribute("role", "alert");
    Object.assign(panel.style, {
      position: "fixed",
      inset: "auto 0 0 0",
      maxHeight: "50vh",
      overflow: "auto",
      zIndex: "2147483647",
      margin: "0",
      padding: "1rem",
      background: "#2b0b0b",
      color: "#ffd7d7",
      font: "14px/1.4 ui-monospace, monospace",
      whiteSpace: "pre-wrap",
    });
    document.body.appendChild(panel);
  }
  const where = file ? `${file}${line ? `:${line}` : ""}` : "the build";
  panel.textContent = `Build error in ${where}\n\n${message}\n\nFix it and save: the page updates.`;
}

export function hideBuildError(): void {
  document.getElementById(ID)?.remove();
}
