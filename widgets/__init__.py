"""The ipywidgets front ends: one dashboard per game and the parts they share.

Imported by a page's kernel first thing: under `playbook serve` the kernel waits here for its
turn to build (`playbook.pacing`), so a class opening its pages at once is served in order.
Its widgets send fewer messages for the same page (`widgets.fewer_messages`), and a press on a
button the page had just replaced is said instead of lost (`widgets.lost_presses`).
"""

from playbook.pacing import hold_until_first_cell_ends
from widgets.fewer_messages import send_fewer_messages
from widgets.lost_presses import tell_lost_presses

hold_until_first_cell_ends()
send_fewer_messages()
tell_lost_presses()
