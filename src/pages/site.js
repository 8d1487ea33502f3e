// Progressive enhancement of the catalogue; every page works without it. On /outils, a
// filter choice or a pause in typing fetches the same page for the new URL and swaps the
// filters and the results in place, without a reload; the address bar follows.
(function () {
  // On a wide screen the filters stay open beside the results (site.css folds them on a phone).
  var fold = document.querySelector('details[data-fold]');
  if (fold && window.matchMedia && window.matchMedia('(min-width: 60rem)').matches) fold.open = true;
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
  // Said in the results when the page cannot be swapped in place (a 429 past the pages'
  // budget, the network gone): the teacher reads why instead of a list that does not change.
  function say(text) {
    var note = document.createElement('p');
    note.className = 'notice';
    note.setAttribute('role', 'alert');
    note.textContent = text;
    region.insertBefore(note, region.firstChild);
  }
  function swap(url) {
    if (pending) pending.abort();
    pending = new AbortController();
    fetch(url, { signal: pending.signal, headers: { Accept: 'text/html' } })
      .then(function (response) {
        if (response.status === 429) {
          var wait = Number(response.headers.get('Retry-After')) || 60;
          say('Trop de recherches en une minute depuis votre réseau : la liste n’a pas été mise à jour. Réessayez dans ' + wait + ' s.');
          return null;
        }
        return response.text();
      })
      .then(function (html) {
        if (html === null) return;
        var next = new DOMParser().parseFromString(html, 'text/html');
        var results = next.getElementById('resultats');
        var filters = next.getElementById('filtres');
        if (!results) return;
        region.innerHTML = results.innerHTML;
        var current = document.getElementById('filtres');
        if (filters && current) current.innerHTML = filters.innerHTML;
        var summary = next.getElementById('filtres-resume');
        var shown = document.getElementById('filtres-resume');
        if (summary && shown) shown.textContent = summary.textContent;
        document.title = next.title;
        history.replaceState(null, '', url);
      })
      .catch(function (error) {
        if (error && error.name === 'AbortError') return;
        say('La liste n’a pas pu être mise à jour (connexion interrompue ?) : appuyez sur « Rechercher ».');
      });
  }
  form.addEventListener('change', function (event) {
    // A card's « Comparer » box belongs to the comparison's form (form="comparer"): not a filter.
    if (event.target && event.target.form === form && event.target.matches('select, input[type=checkbox]')) swap(urlOf());
  });
  var box = form.querySelector('input[type=search]');
  if (box) {
    box.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { swap(urlOf()); }, 350);
    });
  }
})();
