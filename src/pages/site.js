// Progressive enhancement of the catalogue; every page works without it. On /outils, a
// filter choice or a pause in typing fetches the same page for the new URL and swaps the
// filters and the results in place, without a reload; the address bar follows.
(function () {
  var form = document.querySelector('form[data-filters]');
  var region = document.getElementById('resultats');
  if (!form || !region || !window.fetch || !window.DOMParser) return;
  var timer;
  var pending;
  function urlOf() {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, key) { if (value !== '') params.append(key, String(value)); });
    var query = params.toString();
    return form.getAttribute('action') + (query ? '?' + query : '');
  }
  function swap(url) {
    if (pending) pending.abort();
    pending = new AbortController();
    fetch(url, { signal: pending.signal, headers: { Accept: 'text/html' } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, 'text/html');
        var results = next.getElementById('resultats');
        var filters = next.getElementById('filtres');
        if (!results) return;
        region.innerHTML = results.innerHTML;
        var current = document.getElementById('filtres');
        if (filters && current) current.innerHTML = filters.innerHTML;
        document.title = next.title;
        history.replaceState(null, '', url);
      })
      .catch(function () {});
  }
  form.addEventListener('change', function (event) {
    if (event.target && event.target.matches('select, input[type=checkbox]')) swap(urlOf());
  });
  var box = form.querySelector('input[type=search]');
  if (box) {
    box.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { swap(urlOf()); }, 350);
    });
  }
})();
