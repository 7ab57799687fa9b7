"""pytest fixtures for contracts: deterministic accounts on a local dev chain."""
import pytest
from eth_account import Account
from web3 import Web3

FIXED = "0x" + "11" * 32


@pytest.fixture
def fixed_accounts(monkeypatch):
    monkeypatch.setattr(Account, "create", staticmethod(lambda *a, **k: Account.from_key(FIXED)))
    yield Account.from_key(FIXED)


@pytest.fixture
def funded(fixed_accounts):
    w3 = Web3(Web3.HTTPProvider("http://127.0.0.1:8545"))
    tx = {"to": fixed_accounts.address, "value": 10**18, "gas": 21000, "gasPrice": w3.eth.gas_price, "nonce": 0, "chainId": 1337}
    signed = Account.sign_transaction(tx, fixed_accounts.key)
    w3.eth.send_raw_transaction(signed.raw_transaction)
    return fixed_accounts
