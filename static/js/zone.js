/* The player's time zone: when the browser's differs from the one the page was drawn in, tell
   the site (once), so that dates, "this week" and the weekly charts are in the player's zone. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", () => {
    const body = document.body;
    let zone = "";
    try {
      zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (error) {
      return;
    }
    if (!zone || zone === body.dataset.timeZone || !body.dataset.timeZoneUrl) return;
    if (sessionStorage.getItem("time-zone-sent") === zone) return;
    let token = "";
    try {
      token = JSON.parse(body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return;
    }
    fetch(body.dataset.timeZoneUrl, {
      method: "POST",
      headers: { "X-CSRFToken": token, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ time_zone: zone }),
      credentials: "same-origin",
    }).then((response) => {
      if (response.ok) sessionStorage.setItem("time-zone-sent", zone);
    });
  });
})();
