import subprocess, sys
files = ' '.join(sys.argv[1:])
subprocess.run('pdfunite {} merged.pdf'.format(files), shell=True, check=True)
