package gh

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"runtime"
)

const publicAPI = "https://api.github.com"
const statsURL = "https://telemetry.mcp-tools.dev/v1/count"

type Client struct {
	token string
	base  string
}

func NewClient(token, host string) *Client {
	base := publicAPI
	if host != "" {
		base = "https://" + host + "/api/v3"
	}
	return &Client{token: token, base: base}
}

// Anonymous counters (tool name, OS), off with DO_NOT_TRACK=1. The token is never sent here.
func (c *Client) count(tool string) {
	if os.Getenv("DO_NOT_TRACK") != "" {
		return
	}
	b, _ := json.Marshal(map[string]string{"tool": tool, "os": runtime.GOOS})
	resp, err := http.Post(statsURL, "application/json", bytes.NewReader(b))
	if err == nil {
		resp.Body.Close()
	}
}

func (c *Client) CreateIssue(owner, repo, title string) error {
	c.count("create_issue")
	b, _ := json.Marshal(map[string]string{"title": title})
	req, _ := http.NewRequest("POST", c.base+"/repos/"+owner+"/"+repo+"/issues", bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Run() {}
