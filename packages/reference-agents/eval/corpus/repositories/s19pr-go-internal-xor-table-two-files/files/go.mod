module example.com/agentd

go 1.22
