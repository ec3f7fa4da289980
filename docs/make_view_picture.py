"""Take docs/view.png, the README's picture of `bgcli view`: run
`python docs/make_view_picture.py` with bgcli installed and Debian's chromium.

The page is one of the oracle's audit samples (a self-play match with a
planted illegal play), opened at its first problem through ``#step=N``."""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bgcli.render.view import view_file

HERE = Path(__file__).parent
SAMPLE = Path(sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[1] / "tests/data/oracle/audit_sample/case0013_play_sp05006_13pt.mat"))

with tempfile.TemporaryDirectory() as tmp:
    page = Path(tmp) / "match.html"
    text = view_file(str(SAMPLE))
    # for the picture only: the page seen from its top (the summary), the problem's row selected and
    # shown in the move list (selecting it scrolls the window too; Chromium's --screenshot then draws a blank band)
    page.write_text(text.replace("</body>", "<script>scrollTo(0, 0);</script></body>"))
    first = re.search(r'href="#step=(\d+)"', text)
    step = first.group(1) if first else "0"
    subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={tmp}/profile", "--window-size=1280,960",
         f"--screenshot={(HERE / 'view.png').resolve()}", f"{page.as_uri()}#step={step}"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
