"""The look of the picture: the frame's layout in base units and its colours."""

BASE_WIDTH, BASE_HEIGHT = 960, 720  # the frame is laid out in these units, then scaled
TEXT_SIZE = 9.5  # the font size of ordinary text, in base units

# Frame layout in base units: the town (mission cards above it) on the left, a panel on the right.
BOARD = (8, 126, 632, 712)
CARD_TOP, CARD_W, CARD_H = 6, 148, 104
BOX_W, BOX_H = 100, 60
PANEL = (644, 952)
PAWN_R = 12

BACKGROUND = (28, 31, 38)
PARCHMENT = (214, 203, 170)
INK = (40, 32, 24)
INK_DIM = (112, 98, 80)
BOX_FILL = (247, 241, 225)
BOX_FILLS = {"field_w": (205, 226, 170), "field_e": (205, 226, 170), "safe_house": (214, 228, 246)}
TILE_FILL = (228, 216, 245)
UNBUILT_FILL = (226, 221, 210)
SAFE_BORDER = (226, 120, 20)
ROAD = (104, 88, 70)
BRIDGE = (120, 80, 40)
CLOSED = (210, 30, 30)
WATER = (72, 132, 204)
HIGHLIGHT = (255, 214, 0)
PANEL_TEXT = (232, 232, 236)
PANEL_DIM = (150, 152, 164)
HEADING = (250, 208, 90)
CELL = (58, 62, 72)
PAWNS = {  # fill, letter ink, letter
    "worker": ((250, 238, 196), INK, "W"),
    "milice": ((40, 92, 210), (255, 255, 255), "M"),
    "soldier": ((206, 36, 36), (255, 255, 255), "S"),
}
RESOURCE_COLORS = {
    "intel": (96, 170, 236),
    "food": (122, 194, 82),
    "medicine": (240, 134, 176),
    "money": (232, 192, 60),
    "weapon": (168, 170, 182),
    "explosive": (242, 122, 40),
    "poison": (60, 180, 160),
    "fake_id": (176, 110, 230),
}
FAKE_ID = RESOURCE_COLORS["fake_id"]
CRATE = (146, 96, 48)
# Outcome -> the banner over the town at the end of a game: its text and colour.
OUTCOME_BANNERS = {
    "win": ("WIN", (40, 150, 60)),
    "major_win": ("MAJOR WIN", (200, 150, 20)),
    "draw": ("DRAW", (110, 110, 120)),
    "loss": ("LOSS", (190, 30, 30)),
}
