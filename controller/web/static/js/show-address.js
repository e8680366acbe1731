// Admin page: "Show the address on the table screen" puts the dashboard's QR code on the
// table screen for two minutes (POST /admin/api/show-address, CSRF as every admin POST).
const button = document.querySelector("#show-address");
if (button) {
  button.addEventListener("click", async () => {
    const s = await (await fetch("/admin/api/session", { credentials: "same-origin" })).json();
    const r = await fetch("/admin/api/show-address", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": s.csrf },
      body: JSON.stringify({ show: true, csrf: s.csrf }),
    });
    button.classList.toggle("done", r.ok);
  });
}
