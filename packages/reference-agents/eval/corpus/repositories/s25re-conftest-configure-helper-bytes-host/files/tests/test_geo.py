from geo import haversine


def test_zero():
    assert haversine((0, 0), (0, 0)) == 0.0
