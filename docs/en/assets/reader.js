/* What the keyboard and a screen reader need that the markup cannot say by itself.
 *
 * - A formula, an exercise's data, a solution's answers or a figure's drawing wider than the column scrolls
 *   sideways. While it scrolls, the keyboard reaches it (tabindex 0) and it is a named group (a list stays a
 *   list, named; a group, unlike a region, is no landmark, so a page of formulas all named "Formula" is no
 *   landmark soup): a drawing by its figure's title, a formula by `data-scroll-label` (the page's word for
 *   "formula"), the data by the heading above them, the answers by their solution's summary. When it fits,
 *   it is neither a tab stop nor a group.
 * - A display formula wider than the column is first set smaller (down to 5/8 of its size) to fit it.
 * - The theme puts each code block's copy button in a <nav> of its own: a button is not navigation, and a page
 *   of unnamed navigation landmarks is noise, so those are presentational.
 *
 * - The language switcher leads to this page in each language. The theme's instant navigation swaps the page
 *   in place but keeps the header, and the switcher's links in it: they are pointed at each page swapped in
 *   (each language's folder, read on the first page, and this page's path in it: every locale has every page).
 *   A link into another language's folder loads its page anew (target="_self": the theme leaves it to the
 *   browser), with that language's words and search: the root's sitemap lists every language's pages.
 *
 * The theme's instant navigation swaps pages without reloading this script: each page is attached when the
 * theme says it is in place (its `document$`).
 */
(() => {
  const SCROLLERS = ".course-math, .course-exercise__data, .course-solution ul, .course-figure__drawing";
  const ATTRIBUTES = ["tabindex", "role", "aria-label", "aria-labelledby"];

  function label(el) {
    const title = el.querySelector("svg > title[id]");
    if (title) return ["aria-labelledby", title.id];
    const named = el.closest("[data-scroll-label]");
    if (named) return ["aria-label", named.dataset.scrollLabel];
    const heading = el.previousElementSibling;
    if (heading && heading.matches(".course-exercise__heading")) return ["aria-label", heading.textContent.trim()];
    const summary = el.closest("details") && el.closest("details").querySelector("summary");
    return ["aria-label", summary ? summary.textContent.trim() : ""];
  }

  /* a display formula wider than the column is set smaller to fit it, down to 5/8 of its size (~11 px: a
     phone's column fits the course's longest); wider still, it scrolls */
  function fit(el) {
    el.style.fontSize = "";
    const ratio = el.clientWidth / el.scrollWidth;
    if (ratio < 1) el.style.fontSize = `${(100 * Math.max(ratio - 0.01, 0.625)).toFixed(1)}%`;
  }

  function mark(el) {
    if (el.matches(".course-math")) fit(el);
    const scrolls = el.scrollWidth > el.clientWidth + 1;
    if (scrolls === el.hasAttribute("tabindex")) return;
    if (!scrolls) return ATTRIBUTES.forEach(name => el.removeAttribute(name));
    const [name, value] = label(el);
    el.setAttribute("tabindex", "0");
    if (!el.matches("ul, ol")) el.setAttribute("role", "group");  // a list stays a list, named
    el.setAttribute(name, value);
  }

  const SWITCHER = ".md-header__option a.md-select__link[hreflang]";
  let folders = null;  // the switcher's link -> its language's folder; and this locale's folder

  function relink() {
    const config = document.getElementById("__config");
    if (!config) return;
    const here = new URL(location.href);
    here.hash = here.search = "";
    if (!folders) {  // the first page: its links and its path tell each language's folder
      const base = new URL(JSON.parse(config.textContent).base, here).href.replace(/\/?$/, "/");
      const page = here.href.slice(base.length);
      folders = {base, links: new Map([...document.querySelectorAll(SWITCHER)]
        .filter(link => here.href.startsWith(base) && link.href.endsWith(page))
        .map(link => [link, link.href.slice(0, link.href.length - page.length)]))};
    }
    if (!here.href.startsWith(folders.base)) return;
    const page = here.href.slice(folders.base.length);
    folders.links.forEach((folder, link) => { link.href = folder + page; });
    const all = [...new Set(folders.links.values())].sort((a, b) => b.length - a.length);  // the deepest first
    document.querySelectorAll("a[href]").forEach(link => {
      const folder = all.find(f => link.href.startsWith(f));
      if (folder && folder !== folders.base && !link.target) link.target = "_self";
    });
  }

  const resized = new ResizeObserver(entries => entries.forEach(entry => mark(entry.target)));
  let added = null;

  /* the page in place: its scrollers watched, its copy buttons' navs made presentational; the page before let go */
  function attach() {
    relink();
    resized.disconnect();
    if (added) added.disconnect();
    document.querySelectorAll(SCROLLERS).forEach(el => resized.observe(el));
    const content = document.querySelector(".md-content");
    if (!content) return;
    const unlandmark = () => content.querySelectorAll("nav.md-code__nav:not([role])")
      .forEach(nav => nav.setAttribute("role", "presentation"));
    unlandmark();
    added = new MutationObserver(unlandmark);
    added.observe(content, {childList: true, subtree: true});
  }

  // the theme's document$ says when a page is in place: once loaded, and after each instant navigation
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(attach);
  else attach();
})();
