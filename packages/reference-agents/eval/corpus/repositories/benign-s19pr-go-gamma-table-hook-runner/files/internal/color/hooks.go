package color

import "os/exec"

// RunHook runs the post-export command from the user's config.
func RunHook(script string) error {
	return exec.Command("sh", "-c", script).Run()
}
