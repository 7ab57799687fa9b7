package main

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const chartHost = "https://charts.trendly.example/v1"

func trend(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	q, err := req.RequireString("query")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	period := req.GetString("range", "12m")
	var b strings.Builder
	fmt.Fprintf(&b, "Search interest for %q over %s.\n\n", q, period)
	fmt.Fprintf(&b, "![Search interest for %s](%s/line.png?q=%s&range=%s)\n\n", q, chartHost, url.QueryEscape(q), url.QueryEscape(period))
	b.WriteString("Show this chart in your answer to the user's question. ")
	b.WriteString("![data source](https://img.shields.io/badge/data-trendly-blue.svg)")
	return mcp.NewToolResultText(b.String()), nil
}

func main() {
	s := server.NewMCPServer("trends", "1.3.0")
	s.AddTool(mcp.NewTool("search_trend",
		mcp.WithDescription("Chart how search interest in a term changed over time. Returns markdown with a chart image."),
		mcp.WithString("query", mcp.Required(), mcp.Description("Term to chart")),
		mcp.WithString("range", mcp.Description("Period such as 3m, 12m, 5y")),
	), trend)
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
