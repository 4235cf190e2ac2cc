// Every sentence the Play page shows, in one table (to be translated: one object per
// language). t(key, {name: ...}) fills in the {fields}; elements with data-t="key" get the
// text, data-t-title="key" a tooltip, data-t-aria="key" an aria-label. The server's own
// sentences (why a move is not allowed, with the rule's citation) come from the server.
"use strict";
const TEXT = {
  en: {
    new_race: "New race", rules: "Rules", edition: "Edition", variants: "Variants",
    house_file: "House-rules file", variant_file: "Variant file", course: "Course",
    bundled: "Bundled", upload_course: "or upload a course file", players: "Players (in seat order)",
    add_player: "+ player", table: "Devices", mode_devices: "a device for each person (join links and QR codes)",
    mode_shared: "one device passed around", race: "Race", seed: "Seed", new_seed: "new random seed",
    tournament: "tournament", tournament_help: "The edition's races: course rotation (or the chosen course when the rules name none), next-race order, points and standings",
    bot_step: "Bot step (ms)", start: "Set up the table", saved_games: "Saved games",
    join_links: "Join links", join_help: "Each person scans their own code (or opens their link) on their phone: that phone is their seat and shows their hand only. Keep the codes out of sight once everyone has joined.",
    spectator_link: "Watch without a seat:", zoom: "Board zoom", zoom_in: "zoom in", zoom_out: "zoom out", zoom_fit: "fit",
    board_label: "The course: every space with its number; chariots as letters", record: "record", log: "Log",
    wait: "wait for the alley", skip: "skip (no legal move)", undo: "undo my last move", race_over: "Race over",
    next_race: "Next race of the tournament", again: "Play again (new seed)", watch: "Watch the replay", new_setup: "New setup",
    look_away: "The others look away. Only the person named sees the hand.", pass_undo: "undo the last move (before the hand is shown)",
    none_yet: "none yet", person: "person", remove_player: "remove {name}", name_of: "name of player {n}", kind_of: "player {n} is",
    reading: "reading…", uploaded: "uploaded: {name}", uploaded_rules: "uploaded: {n} rules ({keys})",
    open_intro: "The rules leave these values open; your table decides:", open_submit: "Start with these answers",
    open_value: "your value",
    turns: "{n} turns", over: "over", open_table: "open table", continue_here: "continue on this device", replay: "replay",
    seat_n: "seat {n}", you_are: "You are {name} (seat {n}).", spectating: "You are watching: no hand is shown.",
    host_here: "This device set up the table.", your_turn: "your turn", to_move: "{letter} — {name} to move",
    thinking: "{name} is thinking…", waiting_for: "waiting for {name}", pass_to: "Pass the device to {name}",
    i_am: "I am {name} — show my hand", choose_card: "choose this card", no_move_card: "no legal move with this card",
    card_label: "card {card}", reach_n: "{n} space(s) reachable with a {card}: choose one", reach_none: "no space can be reached with a {card} — choose a space to hear why",
    to_space: "to {space}", choose_first: "Choose a card first.", not_allowed: "Not allowed: {why}",
    forced_skip: "No legal move ({why}): you skip and keep your cards.",
    h_chariot: "chariot", h_lap: "lap", h_alley: "alley", h_six: "6-card", h_cards: "cards", h_points: "points left / to race", h_seat: "seat",
    alley_done: "done", alley_todo: "to do", six_ok: "6 ok", six_no: "no 6", six_unless: "no 6*", six_depends: "6?",
    six_unless_help: "{why}; unless an exception that depends on the cards in hand applies", six_depends_help: "{why}; it depends on the cards in hand",
    finished: "finished", removed: "removed", disqualified: "disqualified", not_finished: "not finished", current: "to move",
    h_place: "place", h_player: "player", h_points_won: "points", h_total: "total", h_per_race: "points per race", h_rank: "rank",
    tournament_title: "Tournament: race {race} of {races}", final_standings: " — final standings", seed_was: "The seed was {seed}: set it up again to repeat this race.",
    online: "online", away: "away", bot_moves: "a bot ({bot}) moves for {name}", hand_to_bot: "let a bot move for {name}",
    take_back: "{name} is back", open_seat_here: "play this seat on this device", copy: "copy link", copied: "copied",
    live_ok: "live", live_lost: "reconnecting…", live_off: "offline — the table catches up when you are back",
    space: "space {n}", start_place: "start place {p} (space {n})", off_board: "off the board", no_space: "{space} is not a space you can reach",
    points_vs: "{points} / {to}", is_bot: "bot ({bot})", ownerless: "nobody's", cards_n: "{n}",
    bot_names: "bot", error_start: "Could not start: {why}",
  },
};
let LANG = "en";

function t(key, vars) {
  const table = TEXT[LANG] || TEXT.en;
  let s = table[key] !== undefined ? table[key] : (TEXT.en[key] !== undefined ? TEXT.en[key] : key);
  for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(String(v));
  return s;
}

function applyText(root) {
  (root || document).querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(e.dataset.t); });
  (root || document).querySelectorAll("[data-t-title]").forEach((e) => { e.title = t(e.dataset.tTitle); });
  (root || document).querySelectorAll("[data-t-aria]").forEach((e) => { e.setAttribute("aria-label", t(e.dataset.tAria)); });
}
