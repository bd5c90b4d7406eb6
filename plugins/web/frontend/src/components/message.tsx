export function Message({ title, text }: { title: string; text: string }) {
  return (
    <div class="message" role="alert">
      <h1>{title}</h1>
      <p>{text}</p>
    </div>
  );
}
