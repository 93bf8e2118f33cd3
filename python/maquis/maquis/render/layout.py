"""Where things are on the picture: BOARD_LAYOUT.md's positions of the locations and the river."""

# fmt: off
# BOARD_LAYOUT.md: (x, y) in percent of the printed board, rows in the layout's order (north first).
LAYOUT = {
    "mission_a": (35, -12), "mission_b": (60, -12),
    "fence": (35, 13), "pont_du_nord": (60, 13), "radio_b": (86, 14), "rue_baradat": (16, 27),
    "poor_district": (52, 37), "black_market": (71, 36), "doctor": (33, 38),
    "spare_room_ne": (89, 40), "radio_a": (16, 51), "pont_leveque": (52, 62), "grocer": (71, 61),
    "spare_room_w": (32, 63), "spare_room_se": (89, 66), "field_w": (17, 86), "cafe": (39, 86),
    "safe_house": (58, 86), "field_e": (77, 86),
}
# The order the text board lists the locations in (the layout's rows, north first).
BOARD_ORDER = tuple(LAYOUT)

# BOARD_LAYOUT.md: the river's course, entering at the top edge and leaving at the left edge.
RIVER = ((68, 0), (65, 20), (62, 35), (60, 55), (57, 68), (52, 75), (40, 74), (25, 71), (10, 69),
         (0, 68))
# fmt: on
