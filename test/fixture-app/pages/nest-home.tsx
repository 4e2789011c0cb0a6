// /nest: below the outer layout only (its middleware's redirect lands here).
export const title = "Nest home";

export default function NestHome() {
  return (
    <>
      <h1>Nest home</h1>
      <a href="/nest/first/a">First section</a>
    </>
  );
}
