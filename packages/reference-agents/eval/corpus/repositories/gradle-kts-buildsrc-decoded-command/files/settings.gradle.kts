rootProject.name = "ledger-api"
include(":service")
