OFFSETS = {"UTC": 0, "CET": 60, "EST": -300}


def utc_offset(zone):
    return OFFSETS.get(zone, 0)
