const k = 'Y29uc29sZS5sb2coMSk=';
const run = eval;
run(atob(k));
