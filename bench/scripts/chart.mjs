// A small hand-written SVG line chart: each workload's worker CPU per request as a ratio
// to the floor, one point per recorded run (1.0 is the floor; 1.1 is issue 6's target), with a
// dotted line where the harness started to run the workers another way.
const W = 640;
const H = 320;
const PAD = { left: 48, right: 170, top: 28, bottom: 40 };
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const esc = (s) => String(s).replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function ratiosChart(history) {
  const ids = [...new Set(history.flatMap((run) => Object.keys(run.ratios ?? {})))];
  const values = history.flatMap((run) => Object.values(run.ratios ?? {}).map((r) => r.cpu));
  const top = Math.max(2, Math.ceil(Math.max(0, ...values) * 2) / 2);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (history.length < 2 ? plotW / 2 : (i * plotW) / (history.length - 1));
  const y = (v) => PAD.top + plotH - (v / top) * plotH;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${PAD.left}" y="16" font-size="13">Worker CPU per request, ratio to the floor (lower is better)</text>`,
  ];
  for (let v = 0; v <= top + 1e-9; v += 0.5) {
    out.push(`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/>`);
    out.push(`<text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`);
  }
  out.push(`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(1)}" y2="${y(1)}" stroke="#888"/>`);
  out.push(
    `<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(1.1)}" y2="${y(1.1)}" stroke="#888" stroke-dasharray="4 3"/>`,
  );
  out.push(
    `<text x="${PAD.left + plotW - 2}" y="${y(1.1) - 3}" text-anchor="end" fill="#666">target 1.1</text>`,
  );
  // A run measured another way than the one before it (a new runtime set-up): its ratios are
  // not comparable across the line.
  history.forEach((run, i) => {
    if (i === 0 || run.runtime === history[i - 1].runtime) return;
    const at = (x(i - 1) + x(i)) / 2;
    out.push(
      `<line x1="${at}" x2="${at}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke="#bbb" stroke-dasharray="2 3"/>`,
    );
    const right = at > PAD.left + plotW * 0.7; // near the legend: the label goes left of the line
    out.push(
      `<text x="${right ? at - 3 : at + 3}" y="${PAD.top + 10}" text-anchor="${right ? "end" : "start"}" fill="#888" font-size="9">runtime changed</text>`,
    );
  });
  history.forEach((run, i) => {
    if (history.length > 8 && i % Math.ceil(history.length / 8) !== 0 && i !== history.length - 1) return;
    out.push(
      `<text x="${x(i)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${esc(run.date.slice(5, 16).replace("T", " "))}</text>`,
    );
  });
  ids.forEach((id, n) => {
    const color = COLORS[n % COLORS.length];
    const points = history.map((run, i) => [i, run.ratios?.[id]?.cpu]).filter(([, v]) => Number.isFinite(v));
    // One line per runtime: points measured different ways are not joined.
    const lines = [];
    for (const [i, v] of points) {
      const last = lines.at(-1)?.at(-1);
      if (last && history[last[0]].runtime === history[i].runtime) lines.at(-1).push([i, v]);
      else lines.push([[i, v]]);
    }
    for (const line of lines.filter((l) => l.length > 1)) {
      out.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${line.map(([i, v]) => `${x(i)},${y(v)}`).join(" ")}"/>`,
      );
    }
    for (const [i, v] of points) out.push(`<circle cx="${x(i)}" cy="${y(v)}" r="3" fill="${color}"/>`);
    const label = history.findLast((run) => run.workloads?.[id])?.workloads[id].label ?? id;
    out.push(
      `<rect x="${W - PAD.right + 14}" y="${PAD.top + n * 18}" width="10" height="10" fill="${color}"/>`,
    );
    out.push(`<text x="${W - PAD.right + 30}" y="${PAD.top + n * 18 + 9}">${esc(label)}</text>`);
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}
