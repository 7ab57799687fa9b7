plugins {
    id("ledger.conventions")
}
