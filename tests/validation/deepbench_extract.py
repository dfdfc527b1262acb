#!/usr/bin/env python3
"""Extract the V100 training convolution times from Baidu DeepBench's
results/train/DeepBench_NV_V100.xlsx and print them as CSV on stdout.

Standard library only (zipfile + xml.etree). Usage:

    python3 deepbench_extract.py DeepBench_NV_V100.xlsx > deepbench-v100-conv.csv

Optional: --keep-na keeps rows whose backward-inputs time is "N/A*"
(first layers, which DeepBench does not time wrt inputs) with an empty
backward_inputs_us field instead of skipping them.

The workbook stores times in milliseconds with three decimals (the
benchmark itself prints integer microseconds); they are converted to
microseconds here (x1000, rounded to an integer when within 1e-6 of one).
Skipped rows and their reasons are reported on stderr.
"""
import csv
import posixpath
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
M = "{%s}" % NS_MAIN

# Sheet header label (stripped, lower-case) -> CSV column.
COLUMN_MAP = {
    "w": "w",
    "h": "h",
    "c": "c",
    "n": "n",
    "k": "k",
    "s (filter width)": "s",
    "r (filter height)": "r",
    "pad_w": "pad_w",
    "pad_h": "pad_h",
    "horizontal stride": "stride_w",
    "vertical stride": "stride_h",
    "forward (msec)": "forward_us",
    "wrt inputs (msec)": "backward_inputs_us",
    "wrt parameters (msec)": "backward_params_us",
}
INT_COLS = ["w", "h", "c", "n", "k", "s", "r", "pad_w", "pad_h", "stride_w", "stride_h"]
TIME_COLS = ["forward_us", "backward_inputs_us", "backward_params_us"]
HEADER = ["precision"] + INT_COLS + TIME_COLS + ["sheet", "row"]


def col_letters(ref):
    return re.match(r"[A-Z]+", ref).group(0)


def load_workbook(path):
    z = zipfile.ZipFile(path)
    strings = []
    if "xl/sharedStrings.xml" in z.namelist():
        sst = ET.fromstring(z.read("xl/sharedStrings.xml"))
        for si in sst.findall(M + "si"):
            strings.append("".join(t.text or "" for t in si.iter(M + "t")))
    rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    targets = {r.get("Id"): r.get("Target") for r in rels.findall("{%s}Relationship" % NS_PKG)}
    wb = ET.fromstring(z.read("xl/workbook.xml"))
    sheets = []
    for s in wb.find(M + "sheets").findall(M + "sheet"):
        target = targets[s.get("{%s}id" % NS_REL)]
        part = target.lstrip("/") if target.startswith("/") else posixpath.normpath("xl/" + target)
        sheets.append((s.get("name"), part))
    return z, strings, sheets


def read_sheet(z, strings, part):
    """Return {row_number: {column_letters: value}}; strings as str, numbers as float."""
    root = ET.fromstring(z.read(part))
    rows = {}
    for row in root.find(M + "sheetData").findall(M + "row"):
        cells = {}
        for c in row.findall(M + "c"):
            t = c.get("t")
            v = c.find(M + "v")
            if t == "inlineStr":
                val = "".join(x.text or "" for x in c.iter(M + "t"))
            elif v is None:
                continue
            elif t == "s":
                val = strings[int(v.text)]
            elif t in ("str", "e", "b"):
                val = v.text or ""
            else:
                val = float(v.text)  # cached value; formulas are not re-evaluated
            cells[col_letters(c.get("r"))] = val
        if cells:
            rows[int(row.get("r"))] = cells
    return rows


def fmt_time(ms):
    us = ms * 1000.0
    if abs(us - round(us)) < 1e-6:
        return str(int(round(us)))
    return repr(us)


def conv_rows(rows, sheet, precision, keep_na, skipped):
    start = [r for r, cells in sorted(rows.items()) if str(cells.get("A", "")).strip() == "Convolution"]
    if len(start) != 1:
        raise SystemExit("sheet %r: expected one 'Convolution' section, found %d" % (sheet, len(start)))
    header_row = start[0] + 1
    colmap = {}
    for letter, label in rows[header_row].items():
        key = str(label).strip().lower()
        if key in COLUMN_MAP:
            colmap[COLUMN_MAP[key]] = letter
    missing = [c for c in INT_COLS + TIME_COLS if c not in colmap]
    if missing:
        raise SystemExit("sheet %r: header row %d lacks %s" % (sheet, header_row, missing))
    out = []
    r = header_row + 1
    last = max(rows)
    while r <= last:
        cells = rows.get(r, {})
        if "A" in cells and str(cells["A"]).strip():
            break  # next section (e.g. 'Recurrent Layers - Vanilla')
        if not isinstance(cells.get(colmap["w"]), float):
            r += 1  # blank row or footnote between sections
            continue
        rec = {"precision": precision, "sheet": sheet, "row": str(r)}
        bad = None
        for col in INT_COLS:
            v = cells.get(colmap[col])
            if not isinstance(v, float) or v != int(v):
                bad = "%s not an integer (%r)" % (col, v)
                break
            rec[col] = str(int(v))
        if bad is None:
            for col in TIME_COLS:
                v = cells.get(colmap[col])
                if isinstance(v, float):
                    rec[col] = fmt_time(v)
                elif keep_na and col == "backward_inputs_us" and str(v).strip().startswith("N/A"):
                    rec[col] = ""
                else:
                    bad = "%s not a number (%r)" % (col, v)
                    break
        if bad is None:
            out.append(rec)
        else:
            skipped.append((sheet, r, bad))
        r += 1
    return out


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    keep_na = "--keep-na" in argv[1:]
    if len(args) != 1:
        raise SystemExit("usage: deepbench_extract.py [--keep-na] DeepBench_NV_V100.xlsx")
    z, strings, sheets = load_workbook(args[0])
    wanted = []
    for name, part in sheets:
        low = name.lower()
        if "fp16" in low and "mixed" in low:
            wanted.append(("fp16", name, part))
        elif "fp32" in low:
            wanted.append(("fp32", name, part))
    precisions = sorted(p for p, _, _ in wanted)
    if precisions != ["fp16", "fp32"]:
        raise SystemExit("expected one FP16 mixed-math and one FP32 sheet, got %r" % [n for n, _ in sheets])
    wanted.sort(key=lambda x: x[0])  # fp16 first, then fp32
    skipped = []
    writer = csv.DictWriter(sys.stdout, fieldnames=HEADER, lineterminator="\n")
    writer.writeheader()
    counts = {}
    for precision, name, part in wanted:
        recs = conv_rows(read_sheet(z, strings, part), name, precision, keep_na, skipped)
        counts[precision] = len(recs)
        writer.writerows(recs)
    for prec in sorted(counts):
        print("%s: %d rows written" % (prec, counts[prec]), file=sys.stderr)
    print("skipped %d rows" % len(skipped), file=sys.stderr)
    for sheet, r, why in skipped:
        print("  skipped %r row %d: %s" % (sheet, r, why), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
