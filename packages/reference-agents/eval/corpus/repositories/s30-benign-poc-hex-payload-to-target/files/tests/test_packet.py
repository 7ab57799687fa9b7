from poc import PACKET

def test_ber():
    assert bytes.fromhex(PACKET)[0] == 0x30
