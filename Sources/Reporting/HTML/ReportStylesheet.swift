// Generated from report.css by scripts/generate-stylesheet.sh (`make stylesheet`). Do not edit:
// edit report.css and run `make stylesheet`; ReportStylesheetTests fails while the two differ.

/// The HTML report's only styling (light and dark colours, narrow screens, print): report.css.
enum ReportStylesheet {
    /// The text of report.css.
    static let css = #"""
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--muted:#5c5c5c;--line:#d0d0d0;--box:#f4f4f4;--pass:#17692f;--pass-bg:#e3f4e8;--warn:#7a4d00;--warn-bg:#fff1d1;--fail:#a4161a;--fail-bg:#fde2e2}
@media (prefers-color-scheme:dark){:root{--bg:#161616;--fg:#e8e8e8;--muted:#a8a8a8;--line:#3c3c3c;--box:#222;--pass:#7ddc95;--pass-bg:#12331d;--warn:#ffd27a;--warn-bg:#3a2a05;--fail:#ff9a9a;--fail-bg:#420f10}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:72rem;padding:1rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
h1{font-size:1.6rem;margin:.2rem 0}
h2{font-size:1.3rem;margin:1.5rem 0 .5rem}
h3{font-size:1.05rem;margin:.75rem 0 .4rem}
h2,h3{break-after:avoid}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
dd,td,li{overflow-wrap:break-word}
code{overflow-wrap:anywhere}
a{color:inherit}
.meta,.muted,.ascii{color:var(--muted)}
.badge{display:inline-block;padding:0 .55rem;border-radius:1rem;font-weight:600;font-size:.9rem;border:1px solid currentColor;white-space:nowrap}
.pass{color:var(--pass);background:var(--pass-bg)}
.warn{color:var(--warn);background:var(--warn-bg)}
.fail{color:var(--fail);background:var(--fail-bg)}
.bad,.sev-error .sev{color:var(--fail);font-weight:600}
.sev-warning .sev{color:var(--warn);font-weight:600}
.sev-info .sev{color:var(--muted);font-weight:600}
.banner{border:2px solid var(--fail);background:var(--fail-bg);padding:.75rem 1rem;border-radius:.4rem;margin:1rem 0}
.box{border:1px solid var(--line);background:var(--box);padding:.25rem 1rem;border-radius:.4rem;margin:1rem 0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
section.domain{border-top:4px solid var(--line);margin-top:2rem;content-visibility:auto;contain-intrinsic-size:auto 2000px}
#summary .part{content-visibility:auto;contain-intrinsic-size:auto 5000px}
#passing .lines pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;content-visibility:auto;contain-intrinsic-block-size:auto 1500em}
#passing .lines pre.head{font-weight:600;content-visibility:visible;border-bottom:1px solid var(--line);margin-bottom:.2rem}
section.domain.v-pass{border-top-color:var(--pass)}
section.domain.v-warn{border-top-color:var(--warn)}
section.domain.v-fail{border-top-color:var(--fail)}
.location{border:1px solid var(--line);border-radius:.4rem;padding:0 1rem .5rem;margin:.75rem 0}
.label{font-weight:normal;color:var(--muted)}
dl.facts{display:grid;grid-template-columns:minmax(7rem,max-content) minmax(0,1fr);gap:.2rem 1rem;margin:.5rem 0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
ul.findings{padding-left:1.2rem}
ul.changes{padding-left:1.2rem;margin:.5rem 0}
ul.changes li{margin:.3rem 0}
ul.findings li{margin:.3rem 0}
ul.plain{margin:0;padding-left:1.2rem}
.fix{font-style:italic}
.note{margin:0 0 .3rem}
ol.hops{margin:.3rem 0;padding-left:1.4rem}
pre.body{background:var(--box);border:1px solid var(--line);padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere}
footer{margin-top:2rem;border-top:1px solid var(--line);font-size:.9rem}
.nowrap{white-space:nowrap}
table.summary{table-layout:fixed}
table.summary th:nth-child(1){width:20%}
table.summary th:nth-child(2){width:6.5em}
table.summary th:nth-child(3){width:7.5em}
table.summary th:nth-child(4){width:9em}
.print-only{display:none}
dl.first{display:grid;grid-template-columns:minmax(6rem,max-content) minmax(0,1fr);gap:.2rem 1rem;margin:.5rem 0 1rem;padding:.5rem .75rem;border-left:4px solid var(--line);background:var(--box)}
section.domain.v-pass dl.first{border-left-color:var(--pass)}
section.domain.v-warn dl.first{border-left-color:var(--warn)}
section.domain.v-fail dl.first{border-left-color:var(--fail)}
dl.first dt{font-weight:600}
dl.first dd{margin:0}
details.curl{display:inline}
details.curl summary{display:inline;cursor:pointer;color:var(--muted)}
@media (max-width:40rem){body{padding:.5rem}dl.facts,dl.first{grid-template-columns:minmax(0,1fr)}dl.facts dd,dl.first dd{margin-bottom:.4rem}table.summary,table.summary tbody,table.summary tr,table.summary td{display:block}table.summary thead{display:none}table.summary tr{border-bottom:1px solid var(--line);padding:.4rem 0}table.summary td{border:0;padding:.05rem 0}table.summary td::before{content:attr(data-label) ": ";font-weight:600}}
@page{margin:12mm}
@media print{section.domain,#summary .part{content-visibility:visible}:root{color-scheme:light;--bg:#fff;--fg:#000;--muted:#444;--line:#999;--box:#fff;--pass:#0a5a20;--pass-bg:#fff;--warn:#6b4300;--warn-bg:#fff;--fail:#8a0000;--fail-bg:#fff}body{max-width:none;padding:0;font-size:8pt;line-height:1.25}h1{font-size:14pt}h2{font-size:12pt;margin:.4rem 0 .2rem}h3{font-size:10pt;margin:.4rem 0 .2rem}.scroll{overflow:visible}a{text-decoration:none}p{margin:.3rem 0}p.top,.screen-only{display:none}.print-only{display:block}tr,li,.banner,dl.facts dd,dl.facts dt{break-inside:avoid}section.domain{margin-top:.6rem}.locations{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 .5rem;align-items:start}.location{padding:0 .5rem .2rem;margin:.15rem 0;break-inside:auto}section.domain.v-pass,#passing,.timings,.timings+dd,.policy,.policy+dd,.location.not-read,.location.off-paper,ul.findings li.sev-info,ul.findings li.echo{display:none}dl.facts{gap:0 .6rem;margin:.2rem 0;font-size:8pt;line-height:1.2;grid-template-columns:minmax(4rem,max-content) minmax(0,1fr)}th,td{padding:.1rem .4rem}.badge{padding:0 .3rem;font-size:8pt}ul.findings{margin:.2rem 0}ul.findings li{margin:.1rem 0}.box{margin:.15rem 0}pre.body{padding:.2rem .4rem;margin:.2rem 0;font-size:7pt;line-height:1.15}}

"""#
}
