"""The ipywidgets front ends: one dashboard per game and the parts they share.

Imported by a page's kernel first thing: under `playbook serve` the kernel waits here for its
turn to build (`playbook.pacing`), so a class opening its pages at once is served in order.
Every widget's layout and style are sent only once used (`widgets.lazy_parts`).
"""

from playbook.pacing import hold_until_first_cell_ends
from widgets.lazy_parts import send_parts_once_used

hold_until_first_cell_ends()
send_parts_once_used()
