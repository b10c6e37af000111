"""python -m tests.playthroughs: regenerate the golden playthroughs."""

from tests.playthroughs import regenerate

changed = regenerate()
print("playthroughs: " + (", ".join(changed) + " changed" if changed else "all unchanged"))
