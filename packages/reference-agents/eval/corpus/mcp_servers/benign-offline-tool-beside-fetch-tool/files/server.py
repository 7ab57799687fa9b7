import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("units")

FACTORS = {("km", "mi"): 0.621371, ("kg", "lb"): 2.20462}
RATES: dict[str, float] = {"EUR": 1.0}


@mcp.tool()
def convert(value: float, unit_from: str, unit_to: str) -> float:
    """Convert between units. Works offline."""
    return value * FACTORS[(unit_from, unit_to)]


@mcp.tool()
def fetch_rates(base: str = "EUR") -> dict:
    """Download current exchange rates from the ECB API."""
    RATES.update(httpx.get(f"https://api.frankfurter.app/latest?from={base}", timeout=5).json()["rates"])
    return RATES


@mcp.tool()
def convert_currency(amount: float, to: str, refresh: bool = False) -> float:
    """Convert EUR to another currency using cached rates (works offline unless refresh is true, which downloads fresh rates)."""
    if refresh:
        RATES.update(httpx.get("https://api.frankfurter.app/latest", timeout=5).json()["rates"])
    return amount * RATES.get(to, 1.0)


@mcp.tool()
def summarize(text: str) -> str:
    """Summarize a text with a model that runs locally (Ollama); nothing is sent to a cloud service."""
    r = httpx.post("http://localhost:11434/api/generate", json={"model": "llama3.2", "prompt": f"Summarize:\n{text}", "stream": False}, timeout=120)
    return r.json()["response"]
