from numkit import add


def test_add(numbers):
    assert add(*numbers[:2]) == 3
