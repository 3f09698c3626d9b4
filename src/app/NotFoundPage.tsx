export function NotFoundPage() {
  return (
    <main>
      <h1>404 Page not found !</h1>
      <p>
        <a href="/">กลับหน้าแรก</a>
      </p>
    </main>
  );
}
