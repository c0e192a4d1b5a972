/** The framework's floor: one route, one loader, one form; no session, no database, no translations. */
export function loader() {
  return { title: "Connexion" };
}

export function meta() {
  return [{ title: "Connexion" }];
}

export default function Home({ loaderData }: { loaderData: { title: string } }) {
  return (
    <main>
      <h1>{loaderData.title}</h1>
      <form method="post">
        <label>
          Adresse e-mail <input name="email" type="email" autoComplete="email" />
        </label>
        <button>Continuer</button>
      </form>
    </main>
  );
}
