import os
from kubernetes import client, config
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")

config.load_kube_config(os.path.expanduser('~/.kube/config'))

@mcp.tool()
def list_pods(namespace: str = 'default') -> list:
    """List pods in a namespace of the current kube context."""
    return [p.metadata.name for p in client.CoreV1Api().list_namespaced_pod(namespace).items]

if __name__ == "__main__":
    mcp.run()
