"""python read_log.py LOG OUT.jsonl: the rows gnubg_states_set.py printed (its JSON, with its FIBS board as `fibs`)."""
import json
import sys

lines = open(sys.argv[1]).read().split("\n")
rows: list[dict] = []
for i, line in enumerate(lines):
    if line.startswith("@@ {"):
        rows.append(json.loads(line[3:]))
    elif line.startswith("@@FIBS"):
        j = i + 1
        while not lines[j].startswith("@@ENDFIBS"):
            if lines[j].startswith("board:"):
                rows[-1]["fibs"] = lines[j]
            j += 1
with open(sys.argv[2], "w") as out:
    for row in rows:
        out.write(json.dumps(row, separators=(",", ":")) + "\n")
print(len(rows), "rows")
