"""What the screens draw, as HTML and SVG strings: no widgets, no kernel, tested as plain code.

One module per game (the card's "drawing" layer: `card(slug).module("drawing")`) holds its
pictures (dice, sheets, chips, gauges), the cards its table's page shows and its projector
board by phase (`SCENES`); the shared parts are `drawing.common` (escaping, chips, cards,
a chance in percent, the screen's colours), `drawing.board` (a scene, the board's drawing and
its replay) and `drawing.chart` (the board's chart). The dashboards (`widgets/`) and the board
import this package; it imports the rules and itself only.
"""
