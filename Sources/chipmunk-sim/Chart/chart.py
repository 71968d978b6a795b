#!/usr/bin/env python3
"""The chart of `chipmunk-sim results DB --chart PARAM:METRIC -o FILE`.

Reads a request on standard input, {"format": "svg" | "png" | "pdf", "chart": SweepChart as
JSON}, and writes the picture to standard output. Ok runs as a line per group of the other
parameters; diverged runs as red crosses and failed ones as black along the top edge, with a
dashed line at the first. The y axis fits the ok runs; when no ok run has the metric (such
as error_step), the runs that have it are plotted at their values and the axis fits them.
Log axes where the values are positive and span more than 100x.

chipmunk-sim embeds this file at build time (Plugins/EmbedFiles) and runs it with
`python3 -c`; it runs alone too:
    python3 Sources/chipmunk-sim/Chart/chart.py < request.json > chart.svg
"""
import io, json, math, sys
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.fonttype"] = "none"  # SVG text stays text: searchable, and smaller
    plt.rcParams["svg.hashsalt"] = "chipmunk-sim"  # the same chart, the same bytes (ids are hashes)
except ImportError:
    sys.exit("matplotlib is missing: pip install matplotlib (scripts/demo.sh and scripts/test.sh install it)")

request = json.load(sys.stdin)
chart = request["chart"]
points = chart["points"]  # a run without the metric has no "y" (JSONEncoder leaves nil out)
param, metric = chart["parameter"], chart["metric"]

def spans(values):
    values = [v for v in values if v is not None]
    return bool(values) and min(values) > 0 and max(values) / min(values) > 100

fig, ax = plt.subplots(figsize=(8, 4.8), layout="constrained")
groups = sorted({p["group"] for p in points})
for group in groups:
    ok = [p for p in points if p["group"] == group and p["outcome"] == "ok" and p.get("y") is not None]
    if not ok:
        continue  # a group with nothing to draw gets no legend entry
    label = f"ok ({group})" if group else "ok"
    ax.plot([p["x"] for p in ok], [p.get("y") for p in ok], "o-", markersize=4, linewidth=1, label=label)
if spans([p["x"] for p in points]):
    ax.set_xscale("log")
ok_known = [p.get("y") for p in points if p["outcome"] == "ok" and p.get("y") is not None]
# When no ok run has the metric (error_step is only a diverged or failed run's), the runs
# that have it are what the chart shows: at their values, and the y axis fits them.
by_value = not ok_known
fitted = ok_known or [p["y"] for p in points if p.get("y") is not None]
if spans(fitted):
    ax.set_yscale("log")
# Otherwise not-ok runs sit on the top edge: a diverged run's numbers before it blew up
# would stretch the axis until the ok runs were a flat line.
if fitted:
    low, high = min(fitted), max(fitted)
    if ax.get_yscale() == "log":
        ax.set_ylim(low / 1.5, high * 1.5)
    else:
        pad = (high - low) * 0.08 or abs(high) * 0.1 or 1
        ax.set_ylim(low - pad, high + pad)
for outcome, color in (("diverged", "tab:red"), ("failed", "black")):
    marked = [p for p in points if p["outcome"] == outcome]
    if not marked:
        continue
    first = min(marked, key=lambda p: p["x"])
    label = f"{outcome} ({len(marked)} run{'' if len(marked) == 1 else 's'}; from {param} = {first['x']:.4g}"
    label += f", step {first['errorStep']})" if first.get("errorStep") is not None else ")"
    valued = [p for p in marked if by_value and p.get("y") is not None]
    edge = [p for p in marked if not (by_value and p.get("y") is not None)]
    if valued:
        ax.scatter([p["x"] for p in valued], [p["y"] for p in valued], marker="x", s=40, color=color,
                   label=label, zorder=3)
    if edge:
        ax.scatter([p["x"] for p in edge], [0.96] * len(edge), transform=ax.get_xaxis_transform(),
                   marker="x", s=40, color=color, label=None if valued else label, zorder=3, clip_on=False)
    ax.axvline(first["x"], color=color, linewidth=0.8, linestyle="--")
xs = [p["x"] for p in points]
if ax.get_xscale() == "log":
    ax.set_xlim(min(xs) / 1.3, max(xs) * 1.3)
else:
    pad = (max(xs) - min(xs)) * 0.04 or abs(max(xs)) * 0.1 or 1
    ax.set_xlim(min(xs) - pad, max(xs) + pad)
ax.set_xlabel(param)
ax.set_ylabel(metric)
ok_count = sum(p["outcome"] == "ok" for p in points)
plotted = sum(p["outcome"] != "ok" or p.get("y") is not None for p in points)
ax.set_title(f"{chart['scene']}: {metric} against {param} ({plotted} of {chart['runCount']} runs plotted, {ok_count} ok)")
ax.grid(True, which="major", alpha=0.3)
ax.legend(fontsize="small")
picture = io.BytesIO()
try:
    fig.savefig(picture, format=request["format"], metadata={"Date": None} if request["format"] == "svg" else None)
except OverflowError:
    # A log axis of some 250 decades or more (1e-300 to 1e300): matplotlib's tick locator
    # steps past the largest double ("cannot convert float infinity to integer"). Named as
    # chipmunk-sim names an axis wider than a double, not as Python's exception.
    axes = [(param, xs, ax.get_xscale()), (metric, fitted, ax.get_yscale())]
    logged = [(name, [v for v in values if v is not None and v > 0]) for name, values, scale in axes if scale == "log"]
    logged = [(name, values) for name, values in logged if values]
    if not logged:
        raise
    name, values = max(logged, key=lambda item: math.log10(max(item[1])) - math.log10(min(item[1])))
    sys.exit(f"{name} spans {min(values)!r} to {max(values)!r}, wider than a chart axis can hold; sweep a narrower range")
sys.stdout.buffer.write(picture.getvalue())
