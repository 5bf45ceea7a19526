/** The storefront's look (storefront/templates.ts), which the checkout-link form and the buyer portal share. */
export const storefrontCss = `
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
main.wide{max-width:60rem}.site{display:flex;align-items:center;gap:.75rem;margin:.5rem 0 1rem}
.site img{width:48px;height:48px;border-radius:10px;object-fit:cover}.site .name{font-size:1.25rem;font-weight:700;margin:0;color:#1c1c1e;text-decoration:none}h1.name{font-size:1.6rem !important}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:1rem;padding:0;margin:0;list-style:none}
.grid .card{margin:0;display:flex;flex-direction:column}.grid .card h3{font-size:1.05rem;margin:.5rem 0 .25rem}
.cover{width:100%;aspect-ratio:16/9;object-fit:cover;border-radius:8px;background:#e7e7ec}
.muted{color:#555}.price{font-weight:700;font-size:1.15rem}.was{text-decoration:line-through;color:#555;font-weight:400;margin-left:.4rem}
.tags{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0;margin:.5rem 0}.tags li{background:#ececf1;border-radius:999px;padding:.1rem .7rem;font-size:.85rem;color:#333}
.tiers{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:1rem}.tiers .card{margin:0}
.button{display:block;text-align:center;margin-top:1rem;font-size:1.05rem;font-weight:600;padding:.75rem;border-radius:8px;background:#2b59c3;color:#fff !important;text-decoration:none}
.badge{display:inline-block;font-size:.85rem;font-weight:600;border-radius:6px;padding:.05rem .5rem;background:#fff4d6;color:#6b4e00}
.soldout{background:#fdecea;color:#8a1c13}ul.plain{padding-left:1.2rem;margin:.25rem 0}footer{color:#555;font-size:.9rem;margin:2rem 0 1rem;text-align:center}
.hero{width:100%;max-height:22rem;object-fit:cover;border-radius:12px}dl.event{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}dl.event dt{font-weight:600}dl.event dd{margin:0}`;
