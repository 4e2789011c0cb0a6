// What /nest/:section/a and /nest/:section/b render: sibling pages below three nested layouts.
import { Link } from "./nest-link";

export function NestPage({
  name,
  data,
  params,
}: {
  name: string;
  data: { via: string };
  params: { section: string };
}) {
  return (
    <>
      <h1>
        Nest {name} in {params.section}
      </h1>
      <p data-testid="page-via">via {data.via}</p>
      <nav aria-label="Nest">
        <Link to={`/nest/${params.section}/a`}>Page a</Link>{" "}
        <Link to={`/nest/${params.section}/b`}>Page b</Link> <Link to="/nest/other/a">Other section</Link>{" "}
        <Link to="/nest">Nest home</Link>
      </nav>
    </>
  );
}
