#!/usr/bin/env python3
"""Writes the manual (docs/manual/*.md) as mdoc sections for the man page, so that the man page and
the manual are one text: Scripts/gen-manpage.sh appends this output to the page generate-manual makes
from the commands' help, and Tests/CLITests/EcosystemTests.swift checks the page still ends with it.

    python3 Scripts/manual-to-mdoc.py            # the sections, on stdout

Pages come in the order docs/manual/README.md links them (its own text is the table of contents and
is left out). The Markdown used there is small: headings, paragraphs, fenced code, tables, `-` lists,
inline code, emphasis and links; everything else passes through as text. The output is ASCII (other
characters as roff's \\[uXXXX]) like the rest of the page.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MANUAL = ROOT / "docs" / "manual"


def pages():
    """The manual's pages in the order its table of contents first links them."""
    toc = (MANUAL / "README.md").read_text(encoding="utf-8")
    seen = []
    for target in re.findall(r"\]\(([a-z0-9-]+\.md)(?:#[^)]*)?\)", toc):
        if target not in seen and target != "README.md" and (MANUAL / target).exists():
            seen.append(target)
    rest = sorted(p.name for p in MANUAL.glob("*.md") if p.name not in seen and p.name != "README.md")
    return seen + rest


def escape(text):
    """Roff-safe text: backslashes, non-ASCII as \\[uXXXX]."""
    text = text.replace("\\", "\\e")
    return "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)


def inline(text):
    """Markdown inline markup to plain text (roff escaped)."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = text.replace("**", "")
    text = re.sub(r"(`+) ?(.+?) ?\1", r"\2", text)
    text = text.replace("<!-- ", "").replace(" -->", "") if text.startswith("<!--") else text
    return escape(text)


def line(text):
    """One roff text line: a leading . or ' would be read as a request."""
    text = text.rstrip()
    return "\\&" + text if text.startswith((".", "'")) else text


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def convert(name, out):
    text = (MANUAL / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    i = 0
    paragraph = False

    def gap():
        nonlocal paragraph
        if paragraph:
            out.append(".Pp")
            paragraph = False

    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        if stripped.startswith("<!--"):
            while "-->" not in lines[i]:
                i += 1
            i += 1
            continue
        if stripped.startswith("```"):
            gap()
            out.append(".Bd -literal -offset indent")
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                out.append(line(escape(lines[i])) or "\\&")
                i += 1
            out.append(".Ed")
            i += 1
            continue
        heading = re.match(r"^(#{1,6}) (.*)$", raw)
        if heading:
            level, title = len(heading.group(1)), inline(heading.group(2)).replace('"', "'")
            if level == 1:
                out.append('.Sh "%s"' % title.upper())
            elif level == 2:
                out.append('.Ss "%s"' % title)
            else:
                out.append(".Pp")
                out.append('.Sy "%s"' % title)
            paragraph = True
            i += 1
            continue
        if stripped.startswith("|"):
            gap()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(cells(lines[i].replace("\\|", "\u0001")))
                i += 1
            body = [r for r in rows[2:]] if len(rows) > 1 and set(rows[1][0]) <= set("-: ") else rows
            out.append(".Bl -tag -width Ds")
            for row in body:
                row = [c.replace("\u0001", "|") for c in row]
                out.append(".It " + (inline(row[0]) or "\\&").replace('"', '\\(dq'))
                rest = "; ".join(inline(c) for c in row[1:] if c)
                if rest:
                    out.append(line(rest))
            out.append(".El")
            paragraph = True
            continue
        if re.match(r"^\s*- ", raw):
            gap()
            out.append(".Bl -bullet")
            while i < len(lines) and re.match(r"^\s*- ", lines[i]):
                item = [lines[i].strip()[2:]]
                i += 1
                while i < len(lines) and lines[i].startswith("  ") and not re.match(r"^\s*- ", lines[i]) \
                        and not lines[i].strip().startswith("```"):
                    item.append(lines[i].strip())
                    i += 1
                out.append(".It")
                out.append(line(inline(" ".join(item))))
            out.append(".El")
            paragraph = True
            continue
        if not stripped:
            gap() if paragraph else None
            i += 1
            continue
        # A paragraph is one roff line (inline code and links may span the Markdown's line breaks).
        words = [stripped]
        i += 1
        while i < len(lines) and lines[i].strip() and not re.match(r"^(#{1,6} |\s*- |\s*\||\s*```|\s*<!--)", lines[i]):
            words.append(lines[i].strip())
            i += 1
        out.append(line(inline(" ".join(words))))
        paragraph = True


def main():
    out = []
    for name in pages():
        convert(name, out)
    # No paragraph break at a section's end: mdoc warns about .Pp before .Sh/.Ss.
    cleaned = []
    for entry in out:
        if entry.startswith((".Sh", ".Ss", ".El", ".It")) and cleaned and cleaned[-1] == ".Pp":
            cleaned.pop()
        cleaned.append(entry)
    while cleaned and cleaned[-1] == ".Pp":
        cleaned.pop()
    sys.stdout.write("\n".join(cleaned) + "\n")


if __name__ == "__main__":
    main()
