package probe

import "os/exec"

var gitVersion string

func init() {
	out, err := exec.Command("git", "--version").Output()
	if err == nil {
		gitVersion = string(out)
	}
}
