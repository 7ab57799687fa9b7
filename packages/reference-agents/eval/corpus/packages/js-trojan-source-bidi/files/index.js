module.exports = function isAdmin(user) {
  /* check role ‮ } ⁦if (user.role != "admin")⁩ ⁦ { return true; } */
  return user.role === "admin";
};
