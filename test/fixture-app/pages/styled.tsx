// /styled: what a team expects of a Vite app, in one page: its own stylesheet, a CSS module, an
// image imported as an asset and Tailwind utilities (@tailwindcss/vite in this app's vite.config.ts).
import type { PageProps } from "verge";
import "./styled.css";
import styles from "./styled.module.css";
// Over Vite's 4 KiB `build.assetsInlineLimit`, so it becomes a hashed file, not a data: URL.
import mosaic from "./mosaic.svg";

export const title = "Styled";

export default function Styled(_: PageProps) {
  return (
    <>
      <h1 className="styled-heading">Styled</h1>
      <p>
        This page brings its own stylesheet, a <span className={styles.badge}>CSS module</span> and Tailwind
        utilities, and shows an image imported as an asset.
      </p>
      <figure className="m-0 inline-block rounded-lg border-2 border-dashed p-4" data-testid="tailwind-box">
        <img src={mosaic} alt="A mosaic of coloured tiles" width={240} height={240} />
        <figcaption>An SVG imported by the page, served from /assets/ under a hashed name.</figcaption>
      </figure>
    </>
  );
}
