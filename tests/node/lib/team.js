// The team the stations tests play: a development machine (m1, agent-m1), a review station (m4, whose AI
// pass comments as review-bot) and the validation box (m6, which also opens pull requests as win-box).
// A test adds what it varies (`settleSeconds`, ...) with stationsConfig.

export const TEAM = {
  m1: { role: "dev", logins: ["agent-m1"] },
  m4: { role: "review", logins: ["review-bot"] },
  m6: { role: "dev", logins: ["win-box"] },
};

/** The stations config for TEAM, with `extra` keys of the `stations` section. */
export const stationsConfig = (extra = {}) => ({ flow: "stations", stations: { machines: TEAM, ...extra } });
