"""The words on the board and the picture: names of locations, tiles, resources and missions.

Display text only; what the pieces do is the engine's (``maquis.maquis.tables``).
"""

# fmt: off
# §6: mission id -> (title, what to do in a few words for the image); the stars come from the engine.
MISSION_TEXT = {
    "milice_parade_day": ("Milice Parade Day", "RUE BARADAT: 1 WEAPON"),
    "officers_mansion": ("Officer's Mansion", "TAG 3 PLACES, COMPLETE"),
    "sabotage": ("Sabotage", "INFILTRATE X2, 1 EXPL"),
    "underground_newspaper": ("Underground Newspaper", "3 DAYS: 2 INTEL"),
    "infiltration": ("Infiltration", "MOLE 2 INTEL; WPN+EXPL"),
    "german_shepherds": ("German Shepherds", "3 DAYS: MED + FOOD"),
    "double_agent": ("Double Agent", "VISIT 6, FIND DARK LADY"),
    "aid_the_spy": ("Aid the Spy", "2 WPN; LATER $ + 2 FOOD"),
    "assassination": ("Assassination", "SHOOT ALL MILICE, LAST"),
    "destroy_the_train": ("Destroy the Train", "DAYS 6-9: 3 EXPL"),
    "liberate_the_town": ("Liberate the Town", "END: 3 WPN, MORALE 4+"),
    "coded_messages": ("Coded Messages", "BY DAY 6: $+FOOD+WPN"),
    "take_out_the_bridges": ("Take Out the Bridges", "BLACK MKT: 2 EXPL X2"),
    "bomb_for_the_officer": ("Bomb for the Officer", "MORALE 5+: WPN + EXPL"),
    "milice_hq": ("Milice HQ", "RECORDS; 2 POISON"),
    "bomb_the_barracks": ("Bomb the Barracks", "RECON X2; ID + 2 EXPL"),
    "free_the_resistance_leader": ("Free the Resistance Leader", "BRIBE; POISON/RESCUE"),
    "destroy_aa_guns": ("Destroy AA Guns", "DESTROY 3 AA GUNS"),
}

# Image labels: location -> (name, what its action does).
LABELS = {
    "mission_a": ("MISSION A", ""), "mission_b": ("MISSION B", ""),
    "safe_house": ("SAFE HOUSE", "HOME"),
    "rue_baradat": ("RUE BARADAT", "(MISSIONS)"),
    "fence": ("FENCE", "MONEY > WEAPON"),
    "pont_du_nord": ("PONT DU NORD", "(MISSIONS)"),
    "radio_b": ("RADIO B", "INTEL / AIRDROP"),
    "doctor": ("DOCTOR", "+1 MEDICINE"),
    "poor_district": ("POOR DISTRICT", "FOOD+MED>MORALE"),
    "black_market": ("BLACK MARKET", "FOOD/MED>$,-MOR"),
    "spare_room_ne": ("SPARE ROOM NE", "2 MONEY > BUILD"),
    "radio_a": ("RADIO A", "INTEL / AIRDROP"),
    "spare_room_w": ("SPARE ROOM W", "2 MONEY > BUILD"),
    "pont_leveque": ("PONT LEVEQUE", "(MISSIONS)"),
    "grocer": ("GROCER", "+1 FOOD"),
    "spare_room_se": ("SPARE ROOM SE", "2 MONEY > BUILD"),
    "field_w": ("FIELD W", "PICK UP AIRDROP"),
    "cafe": ("CAFE", "FOOD > RECRUIT"),
    "field_e": ("FIELD E", "PICK UP AIRDROP"),
}
# A5: tile -> (name, what its action does).
TILE_LABELS = {
    "informant": ("INFORMANT", "+1 INTEL"),
    "counterfeiter": ("COUNTERFEITER", "+1 MONEY"),
    "safe_house": ("SAFE HOUSE TILE", "2ND SAFE HOUSE"),
    "chemists_lab": ("CHEMIST'S LAB", "MED > EXPLOSIVE"),
    "smuggler": ("SMUGGLER", "+3 MED/+3 FOOD"),
    "propagandist": ("PROPAGANDIST", "+1 MORALE"),
    "fixer": ("FIXER", "$ > ANY TILE"),
    "pharmacist": ("PHARMACIST", "2 MED > POISON"),
    "forger": ("FORGER", "INT+2$>FAKE ID"),
}
# Short location names for patrol-card lines in the side panel.
SHORT = {
    "rue_baradat": "RUE BARADAT", "fence": "FENCE", "pont_du_nord": "PONT NORD",
    "radio_b": "RADIO B", "doctor": "DOCTOR", "poor_district": "POOR DIST",
    "black_market": "BLACK MKT", "radio_a": "RADIO A", "pont_leveque": "PONT LEVEQUE",
    "grocer": "GROCER",
}
RESOURCE_NAMES = {
    "intel": "INTEL", "food": "FOOD", "medicine": "MEDICINE", "money": "MONEY",
    "weapon": "WEAPON", "explosive": "EXPLOSIVE", "poison": "POISON", "fake_id": "FAKE ID",
}
RESOURCE_SHORT = {
    "intel": "INTEL", "food": "FOOD", "medicine": "MED", "money": "MONEY", "weapon": "WEAPON",
    "explosive": "EXPL", "poison": "POISON", "fake_id": "ID",
}

# fmt: on
