/* Every visible string of the web client in Italian (it): an ES module
   whose default export maps each key to its text. One file per language, so
   a page downloads only the language in use (i18n.js imports it before the
   page starts, and the other one on a language switch).

   One key a line, grouped by the page that shows it, in the same order in
   every language, so the three files read side by side. Card and role names
   follow the rulebooks. A value is a string with {name} placeholders, an
   object of plural forms ({one, other}, chosen with Intl.PluralRules by
   vars.n or by the variable its `n` names), or an array (rank names, rules).
   A long text is written as pieces joined with +. Game events are rendered
   from the `ev.GAME.KIND` templates by words.js. No text names a bot
   level's number: the lobby counts it from the ladder (`bot.level`).

   A Rust test (crates/server/tests/it/i18n.rs) fails when a kind lacks a
   template in some language, a template names a field its event does not
   have, or the languages' key sets differ. */

export default {
  /* Every page: languages, games, the connection, errors */
  'lang.en': 'English',
  'lang.it': 'Italiano',
  'lang.fr': 'Français',
  'game.bigcheese': 'The Big Cheese (Il Grande Formaggio)',
  'game.dalmuti': 'Il Grande Dalmuti',
  'about.bigcheese': 'The Big Cheese: i ratti puntano i loro tirapiedi sui progetti, e un progetto paga il suo padrone con i dadi quando i tirapiedi se ne vanno; vince chi arriva per primo al punteggio.',
  'about.dalmuti': 'Il Grande Dalmuti: una scala sociale dal Grande Dalmuti al Grande Peone; liberati per primo delle carte, battendo ogni gruppo con altrettante carte di rango migliore, per salirla.',
  'nav.verify': 'Verifica di correttezza',
  'conn.connecting': 'connessione…',
  'conn.live': 'connesso',
  'conn.off': 'disconnesso, riconnessione…',
  'err.bad_message': 'Il server non ha capito il messaggio.',
  'err.unknown_table': 'Questo tavolo non esiste.',
  'err.bad_token': 'La chiave del tuo posto non vale qui; stai guardando.',
  'err.not_your_turn': 'Non è il tuo turno.',
  'err.stale': 'Il tavolo è andato avanti; ecco lo stato aggiornato. Scegli di nuovo.',
  'err.illegal': 'Non permesso dalle regole',
  'err.conceded': 'Ti sei ritirato da questa partita: un bot gioca il tuo posto.',
  'err.game_over': 'La partita è finita.',
  'err.rate_limited': 'Troppi messaggi: rallenta.',
  'err.not_seated': 'Chi guarda non può giocare.',
  'err.internal': 'Errore del server; nulla è cambiato.',
  'err.bad_input': 'Dati non validi',
  'err.seat_taken': 'Quel posto è già occupato.',
  'err.not_over': 'La partita non è ancora finita.',
  'err.timeout': 'La richiesta ha impiegato troppo tempo.',
  'err.forbidden': 'Solo chi ha creato il tavolo può farlo.',
  'err.try_again': 'Il tavolo sta passando a un altro server: riprova tra un momento.',
  'err.too_large': 'Troppo grande.',
  'err.network': 'Il server non è raggiungibile.',
  'err.offline': 'Non connesso: attendi la riconnessione.',
  'err.noTable': 'Nessun tavolo nell\'indirizzo.',
  'err.unknown': 'Errore ({code})',
  'err.busy': 'Il server è occupato con altre analisi: riprova tra qualche minuto.',
  'err.abandoned': 'Questa partita è stata abbandonata prima della fine: non ha analisi.',

  /* The lobby: the new table form, the tables’ lists, bots and options in words */
  'lobby.title': 'Sala',
  'lobby.intro':
    'Siediti a un tavolo con amici o bot. Nessun account: scegli un nome, crea un tavolo e condividi il link.',
  'lobby.create': 'Nuovo tavolo',
  'lobby.game': 'Gioco',
  'lobby.players': 'Giocatori',
  'lobby.name': 'Il tuo nome',
  'lobby.namePh': 'nome visibile',
  'lobby.seats': 'Posti',
  'lobby.you': 'tu (umano)',
  'lobby.human': 'umano (invita un amico)',
  'lobby.options': 'Opzioni delle regole',
  'lobby.default': 'predefinito {v}',
  'lobby.go': 'Crea e siediti',
  'lobby.needName': 'Scrivi prima il tuo nome.',
  'lobby.open': 'Tavoli aperti (posti liberi)',
  'lobby.live': 'Partite in corso',
  'lobby.done': 'Partite finite',
  'lobby.none': 'Nessuno al momento.',
  'lobby.nPlayers': { one: '{n} giocatore', other: '{n} giocatori' },
  'lobby.free': { one: '{n} posto libero', other: '{n} posti liberi' },
  'lobby.join': 'Siediti',
  'lobby.watch': 'Guarda',
  'lobby.replay': 'Replay',
  'lobby.result': 'Risultato',
  'lobby.back': 'Torna al tuo posto {seat}',
  'bot.level': 'bot livello {n}: {bot}',
  'bot.external': 'programma bot: {name}',
  'bot.random': 'casuale (principiante)',
  'bot.heuristic': 'a regole (facile)',
  'bot.strong': 'euristico forte (bravo)',
  'bot.learned': 'rete addestrata (avanzato)',
  'bot.search': 'ricerca (esperto)',
  'val.on': 'sì',
  'val.off': 'no',
  'val.auto': 'automatico',
  'val.none': 'nessuno',
  'val.polyhedral': 'poliedrici (il dado della carta)',
  'val.d6': 'un d6 × valore',
  'val.best-of-two': 'il migliore di due d6 × valore',
  'val.half-of-n': 'metà migliore di tanti d6 quanto il valore × 2',
  'val.no-dice': 'senza dadi (valore della carta)',
  'opt.bigcheese.dice': 'Come paga un progetto numerico terminato.',
  'opt.bigcheese.specials': 'Carte Veto e Il Grande Formaggio nel mazzo.',
  'opt.bigcheese.exact': 'Punteggio esatto: un guadagno che supera l\'obiettivo è ignorato.',
  'opt.bigcheese.target': 'Punti per vincere; automatico = 40 poliedrici (30 esatto), 200 con d6, 60 senza dadi.',
  'opt.bigcheese.veto':
    'Quando si può giocare un Veto: a ogni turno, o solo prima della propria prima offerta nell\'asta.',
  'opt.bigcheese.final_tie': 'Un pareggio rimasto dopo punti e progetti: vittoria condivisa, o decisa da un dado.',
  'opt.bigcheese.chips': 'Tirapiedi iniziali per giocatore.',
  'opt.dalmuti.hands': 'Mani della sessione; 1 = una sola mano.',
  'opt.dalmuti.target': 'La sessione finisce anche a fine mano quando qualcuno ha questi punti.',
  'opt.dalmuti.standard_deck': 'Mazzo standard: tutte le 80 carte anche in 3-5 giocatori.',
  'opt.dalmuti.settling_hand': 'Mano di assestamento: niente tasse né rivoluzioni alla prima mano.',
  'opt.dalmuti.auto_revolution':
    'Rivoluzione automatica: mai tasse, ma la Grande Rivoluzione inverte comunque le classi.',
  'opt.dalmuti.benevolent_rulers': 'Regnanti benevoli: +1 punto al Dalmuti il cui Peone sale.',
  'opt.dalmuti.the_elected': 'L\'Eletto: +1 punto al Grande Peone che diventa Grande Dalmuti.',
  'opt.dalmuti.market': 'Mercato: dopo le tasse il primo mercante può scambiare una carta scelta con un mercante.',
  'opt.dalmuti.black_market':
    'Mercato nero: dopo le tasse il primo mercante e un mercante si pescano a caso una carta a vicenda.',
  'opt.dalmuti.joins': 'Mani prima delle quali entra un nuovo giocatore come mercante, es. 3,5.',
  'opt.dalmuti.single_hand': 'Una sola mano: vince chi esce per primo, o chi ha più punti con i bonus.',
  'lobby.settings': 'Impostazioni del tavolo',
  'set.public': 'Tavolo pubblico',
  'set.turn_timer_ms': 'Tempo per turno (s)',
  'set.bot_delay_ms': 'Attesa dei bot (s)',
  'set.spectator_chat': 'Chat degli spettatori',
  'setHelp.public': 'Elencato qui: chiunque può prendere un posto libero (altrimenti solo chi ha il link di invito).',
  'setHelp.turn_timer_ms': 'Quanto può durare il turno di una persona, poi un bot lo gioca (vuoto: 2:00 a un tavolo pubblico, nessuno a uno privato).',
  'setHelp.bot_delay_ms': 'Quanto aspetta un bot prima di agire, perché le persone possano seguire.',
  'setHelp.spectator_chat': 'Anche gli spettatori possono leggere e scrivere in chat (altrimenti solo i giocatori seduti).',
  'lobby.defaultIs': 'predefinito: {v}',
  'lobby.source': 'Fonte: {s}',
  'lobby.blank': 'vuoto = {v}',
  'lobby.seatN': 'Posto {n}',
  'val.any-turn': 'a ogni turno',
  'val.before-bid': 'solo prima della prima offerta',
  'val.shared': 'condivisa',
  'val.chance': 'decisa da un dado',
  'val.first-out': 'chi esce per primo',
  'val.points': 'chi ha più punti',
  'optName.bigcheese.dice': 'Dadi del guadagno',
  'optName.bigcheese.specials': 'Carte Veto e Il Grande Formaggio',
  'optName.bigcheese.exact': 'Punteggio esatto',
  'optName.bigcheese.target': 'Punti per vincere',
  'optName.bigcheese.chips': 'Tirapiedi per giocatore',
  'optName.bigcheese.veto': 'Quando si gioca un Veto',
  'optName.bigcheese.final_tie': 'Pareggio finale',
  'optName.dalmuti.hands': 'Mani della sessione',
  'optName.dalmuti.target': 'Fine a un punteggio',
  'optName.dalmuti.standard_deck': 'Mazzo completo con 3-5 giocatori',
  'optName.dalmuti.settling_hand': 'Mano di assestamento',
  'optName.dalmuti.auto_revolution': 'Rivoluzione automatica',
  'optName.dalmuti.benevolent_rulers': 'Regnanti benevoli',
  'optName.dalmuti.the_elected': 'L\'eletto',
  'optName.dalmuti.market': 'Mercato',
  'optName.dalmuti.black_market': 'Mercato nero',
  'optName.dalmuti.joins': 'Nuovi giocatori',
  'optName.dalmuti.single_hand': 'Chi vince una mano sola',
  'src.bigcheese.dice':
    'i regolamenti inglesi (1998, 2011) tirano il dado della carta; il traduttore dell\'edizione francese aggiunge ' +
    'il meglio di due d6, metà di n d6 e senza dadi',
  'src.bigcheese.specials': 'tutti e quattro i regolamenti: facoltative, come i Jolly',
  'src.bigcheese.exact': 'i regolamenti inglese 1998 e italiano (a 30), inglese 2011 (a 40)',
  'src.bigcheese.target': 'i regolamenti inglesi e le varianti del traduttore francese',
  'src.bigcheese.chips': 'tutti e quattro i regolamenti: 10 a testa',
  'src.bigcheese.veto': 'l\'edizione francese: solo prima di offrire; le altre: a ogni turno',
  'src.bigcheese.final_tie': 'l\'edizione francese: a sorte; le altre: condivisa',
  'src.dalmuti.hands': 'le regole ufficiali inglesi e Il Grande Dalmuti',
  'src.dalmuti.target': 'le regole ufficiali inglesi',
  'src.dalmuti.standard_deck': 'Il Grande Dalmuti toglie i 12 (e gli 11) con 5 (e 4) giocatori',
  'src.dalmuti.settling_hand': 'Il Grande Dalmuti, varianti',
  'src.dalmuti.auto_revolution': 'Il Grande Dalmuti, varianti',
  'src.dalmuti.benevolent_rulers': 'Il Grande Dalmuti, varianti',
  'src.dalmuti.the_elected': 'Il Grande Dalmuti, varianti',
  'src.dalmuti.market': 'Il Grande Dalmuti, varianti',
  'src.dalmuti.black_market': 'Il Grande Dalmuti, varianti',
  'src.dalmuti.joins': 'Il Grande Dalmuti: chi arriva entra come mercante',
  'src.dalmuti.single_hand': 'una regola di ratrace: il regolamento gioca sessioni di mani',
  'lobby.freeSeat': 'un posto libero',
  'lobby.winner': 'vinta da {who}',
  'lobby.nobody': 'nessun vincitore',
  'lobby.with': 'con {who}',

  /* The lobby, the players’ side: my games, my identity on another device, the leaderboard */
  'board.played': 'Partite',
  'me.other': 'Gioca come te su un altro dispositivo',
  'me.otherText':
    'Apri questo link sull’altro telefono o computer: lì diventa te, con le tue partite e la tua classifica. ' +
    'Chiunque abbia il link gioca come te: tienilo per te.',
  'me.takeTitle': 'Giocare come il giocatore di questo link?',
  'me.takeText':
    'Questo link porta l’identità di un giocatore da un altro dispositivo. Usala qui, e questo browser diventa quel ' +
    'giocatore (le sue partite e la sua classifica); l’identità che aveva questo browser resta da parte.',
  'me.takeWho': 'Questo link è l’identità di {name} ({games}).',
  'me.takeNobody':
    'Questo link è un’identità che non ha ancora giocato nessuna partita: nessuno che tu possa riconoscere.',
  'me.replace':
    'Questo browser ora è {name} ({games}): usare il link sostituisce qui quell’identità. Per tenerla, copia prima ' +
    'il suo link (“Gioca come te su un altro dispositivo”).',
  'me.take': 'Usala qui',
  'me.keep': 'Tieni la mia',
  'mine.title': 'Le mie partite',
  'mine.none': 'Ancora nessuna partita da questo browser.',
  'mine.live': 'in corso',
  'mine.open': 'in attesa di giocatori',
  'mine.abandoned': 'abbandonata',
  'mine.you': 'hai giocato {seat}',
  'mine.rating': 'Il tuo punteggio a {game}: {r}',
  'board.title': 'Classifica',
  'board.player': 'Giocatore',
  'board.rating': 'Punteggio',
  'board.games': { one: '{n} partita', other: '{n} partite' },
  'board.none': 'Ancora nessuno in classifica: finisci una partita per comparire qui.',
  'board.you': 'tu',
  'board.about':
    'Punteggi Weng–Lin (come TrueSkill): contano le partite finite contro i bot a ogni tavolo, contro persone ai ' +
    'tavoli pubblici; i bot hanno un punteggio fisso per livello. Classifica per punteggio meno tre incertezze, poi ' +
    'per partite giocate.',

  /* The table page: the banner, the waiting room, joining, conceding, the seats, the alerts, the result */
  'res.secret': 'Segreto del server (rivelato):',
  'res.mine': 'Il contributo del tuo browser {c} è entrato nel seme: la verifica lo mostra.',
  'table.abandoned': 'Questa partita è stata abbandonata: nessuno l\'ha giocata per molto tempo.',
  'table.fill': 'Affidalo a un bot',
  'table.fillText': 'Nessuno ha preso il posto {seat}.',
  'table.title': 'Tavolo',
  'table.players': 'Giocatori',
  'table.log': 'Cosa è successo',
  'table.invite': 'Invita un amico: condividi questo link',
  'table.copy': 'Copia',
  'table.seedHash': 'Impegno (pubblicato alla creazione):',
  'table.joinTitle': 'Siediti',
  'table.joinText': {
    one: '1 posto è libero. Scrivi il tuo nome per giocare, oppure guarda.',
    other: '{n} posti sono liberi. Scrivi il tuo nome per giocare, oppure guarda.',
  },
  'table.spectating': 'Stai guardando.',
  'table.concedeTitle': 'Ritirarsi',
  'table.concede': 'Ritirati da questa partita',
  'table.concedeSure': 'Un bot gioca il tuo posto fino alla fine e sei classificato ultimo. Non si può annullare.',
  'table.concedeYes': 'Sì, mi ritiro',
  'table.concedeNo': 'Continua a giocare',
  'table.youConceded': 'Ti sei ritirato: un bot gioca il tuo posto.',
  'table.concededWho': '{who} si è ritirato: un bot gioca il suo posto.',
  'table.more': 'Altro su questo tavolo',
  'table.info': 'Tavolo',
  'table.standInTime': '{who} ha finito il tempo: un bot ha giocato al suo posto.',
  'table.standInTimeMe': 'Il tuo tempo è scaduto: un bot ha giocato al tuo posto.',
  'table.standInAway': '{who} è assente: un bot ha giocato al suo posto.',
  'table.standInAwayMe': 'Eri assente: un bot ha giocato al tuo posto.',
  'table.dealSoon': 'Le carte vengono distribuite quando tutti sono seduti.',
  'table.fillIn': 'Dallo a un bot (tra {s} s)',
  'table.mineLabel': 'La tua mano e le tue mosse',
  'table.privateTitle': 'Un tavolo privato',
  'table.privateText':
    'Questo è il tavolo di {name}, ed è privato: solo chi ha il suo link d’invito può sedersi. Chiedi il link a ' +
    '{name} (finisce con ?k=…), oppure guarda.',
  'table.privateAnon':
    'Questo tavolo è privato: solo chi ha il suo link d’invito può sedersi. Chiedi il link a chi ti ha invitato ' +
    '(finisce con ?k=…), oppure guarda.',
  'table.copied': 'Copiato',
  'table.skip': 'Vai alla tua mano e alle mosse',
  'table.waitPlayers': { one: 'Si aspetta 1 giocatore', other: 'Si aspettano {n} giocatori' },
  'table.waitText':
    'La partita comincia quando tutti i posti sono presi. Manda questo link agli amici che vuoi al tavolo:',
  'table.started': 'Tutti seduti: la partita comincia.',
  'table.share': 'Condividi questo tavolo (gli altri possono guardare)',
  'table.yours': 'La tua mano',
  'table.timerHint': 'Tempo per la mossa: allo scadere gioca un bot.',
  'alert.title': 'Tocca a te',
  'alert.onMyTurn': 'Al mio turno:',
  'alert.sound': 'suono',
  'alert.notify': 'notifica se la scheda è nascosta',
  'alert.autoPass': 'passa per me quando non posso giocare',
  'alert.confirmPass': 'chiedimi prima di passare',
  'botLevel.random': 'bot principiante',
  'botLevel.heuristic': 'bot facile',
  'botLevel.learned': 'bot avanzato',
  'botLevel.strong': 'bot bravo',
  'botLevel.search': 'bot esperto',
  'botLevel.external': 'programma bot {name}',
  'table.yourTurn': 'Tocca a te.',
  'table.waiting': 'In attesa di {who}.',
  'table.waitingFree': 'Si aspetta che qualcuno prenda il posto {who}: condividi il link d\'invito qui sotto.',
  'table.over': 'La partita è finita.',
  'table.player': 'Giocatore',
  'table.autoPassing': 'Non puoi giocare: passo per te…',
  'tag.turn': 'di turno',
  'tag.leader': 'apre',
  'tag.high': 'offerta {n}',
  'tag.passed': 'passa',
  'tag.you': 'tu',
  'tag.free': 'posto libero',
  'tag.conceded': 'si è ritirato (gioca un bot)',
  'tag.away': 'assente (gioca un bot)',
  'tag.out': 'uscito {n}°',
  'res.won': 'Ha vinto {who}!',
  'res.conceded': '{who}, che ha abbandonato (un bot ha giocato al suo posto)',
  'res.nobody': 'Nessun vincitore.',
  'res.capped': 'Partita interrotta (troppo lunga): nessun vincitore.',
  'res.place': 'Posto',
  'res.player': 'Giocatore',
  'res.score': 'Punti',
  'res.deal': 'I numeri della distribuzione (li legge la verifica di equità)',
  'res.seed': 'Seme (rivelato):',
  'res.replay': 'Replay',
  'res.download': 'Scarica la registrazione',
  'res.verify': 'Verifica la correttezza',
  'res.lobby': 'Sala',
  'res.rematch': 'Rivincita',

  /* Actions in words (the generic buttons, the replay’s moves) */
  'act.bid': 'offre {n}',
  'act.pass': 'passa',
  'act.veto': 'gioca un Veto',
  'act.keep': 'tiene il tiro',
  'act.reroll': 'ritira con Il Grande Formaggio',
  'act.rerollDice': 'ritira i dadi {d} con Il Grande Formaggio',
  'act.play': 'gioca {set}',
  'act.give': 'dà {cards}',
  'act.revolution': 'dichiara la Rivoluzione',
  'act.noRevolution': 'nessuna rivoluzione',
  'act.noMarket': 'nessuno scambio',
  'act.market': 'dà {cards} a {seat} al mercato',
  'act.blackMarket': 'mercato nero con {seat}',
  'act.seatAbove': 'fai sedere il nuovo arrivato sopra il centro',
  'act.seatBelow': 'fai sedere il nuovo arrivato sotto il centro',
  'act.passSure': 'Sì, passo',
  'act.passNo': 'No, tengo il turno',

  /* The Big Cheese at the table: the auction, the dice, the prompts */
  'bc.rerollNone': 'Rilancia con un Big Cheese: prima scegli i dadi',
  'bc.bestHalf': 'Bordati: i {n} dadi migliori, la metà che paga.',
  'bc.projectCard': 'carta progetto {n}',
  'bc.die': 'dado su {face}, {sides} facce',
  'bc.yourDice': 'I tuoi dadi',
  'bc.less': 'un tirapiedi in meno',
  'bc.more': 'un tirapiedi in più',
  'bc.pickDice': 'Clicca i dadi da ritirare.',
  'bc.diceNotLegal': 'Questi dadi non si possono ritirare insieme.',
  'bc.rerollPicked': {
    one: 'Ritira questo dado con il Grande Formaggio',
    other: 'Ritira questi {n} dadi con il Grande Formaggio',
  },
  'bc.promptOpen': {
    one: 'Nessuno ha ancora offerto per {card}: offri 1 tirapiedi o più, oppure passa.',
    other: 'Nessuno ha ancora offerto per {card}: offri {n} tirapiedi o più, oppure passa.',
  },
  'bc.promptOutbid': {
    one: '{who} offre {high}: offri 1 tirapiedi o più per superarlo, oppure passa.',
    other: '{who} offre {high}: offri {n} tirapiedi o più per superarlo, oppure passa.',
  },
  'bc.promptCannot': '{who} offre {high} e non puoi superarlo: passa.',
  'bc.promptNoChips': 'Non hai tirapiedi liberi da offrire: passa.',
  'bc.promptVeto': 'Oppure gioca un Veto per scartare {card}.',
  'bc.promptKeep': 'Il tuo {card} paga {n}: tieni il tiro.',
  'bc.promptRoll': 'Il tuo {card} paga {n}: tieni il tiro, oppure gioca il Grande Formaggio per ritirare.',
  'bc.promptDice':
    'Il tuo {card} paga {n}: tieni il tiro, oppure clicca i dadi da ritirare e gioca il Grande Formaggio.',
  'bc.veto': 'Veto',
  'bc.cheese': 'Il Grande Formaggio',
  'bc.project': 'progetto',
  'bc.table': 'Il tavolo',
  'bc.top': 'Prima carta (all\'asta)',
  'bc.noTop': 'nessuna',
  'bc.discards': 'scarti: {n}',
  'bc.deck': { one: 'Mazzo: {n} carta', other: 'Mazzo: {n} carte' },
  'bc.target': { one: 'Obiettivo: {n} punto', other: 'Obiettivo: {n} punti' },
  'bc.exact': '(esatti)',
  'bc.dice.polyhedral': 'Guadagno: il dado della carta (d2 … d20).',
  'bc.dice.d6': 'Guadagno: un d6 × il valore della carta.',
  'bc.dice.best-of-two': 'Guadagno: il migliore di due d6 × il valore.',
  'bc.dice.half-of-n': 'Guadagno: tanti d6 quanto il valore, metà migliore sommata × 2.',
  'bc.dice.no-dice': 'Guadagno: il valore della carta, senza dadi.',
  'bc.auction': 'All\'asta: {card}',
  'bc.leader': 'ha aperto {who}',
  'bc.high': 'offerta più alta {n} di {who}',
  'bc.noBid': 'ancora nessuna offerta',
  'bc.passed': 'Hanno passato (fuori da quest\'asta): {who}',
  'bc.turn': 'Deve offrire: {who}',
  'bc.roll': '{who} ha tirato per {card}:',
  'bc.pays': '→ vale {n}',
  'bc.rollWait': '{who} può tenerlo o giocare Il Grande Formaggio per ritirare.',
  'bc.toResolve': 'Ancora da pagare: {list}',
  'bc.lastRolls': 'Ultimi guadagni',
  'bc.score': {
    n: 'k',
    one: 'Punti {n} / {target} ({k} progetto pagato)',
    other: 'Punti {n} / {target} ({k} progetti pagati)',
  },
  'bc.free': { one: '{n} tirapiedi libero', other: '{n} tirapiedi liberi' },
  'bc.hired': { one: '{n} assunto', other: '{n} assunti' },
  'bc.projects': 'Progetti:',
  'bc.noProjects': 'nessuno',
  'bc.hand': 'In mano:',
  'bc.chipsOn': { one: '{n} tirapiedi', other: '{n} tirapiedi' },
  'bc.maturesIn': {
    one: 'resta 1 tirapiedi: paga dopo la prossima asta vinta',
    other: 'restano {n} tirapiedi: paga dopo altre {n} aste vinte',
  },
  'bc.bidAmount': 'Tirapiedi:',
  'bc.bid': 'Offri',
  'bc.bidMin': 'Offri {n}',
  'bc.pass': 'Passa (fuori da quest\'asta)',
  'bc.useVeto': 'Veto: scarta {card}',
  'bc.keep': 'Tieni (vale {n})',
  'bc.reroll': 'Ritira con Il Grande Formaggio',
  'bc.rerollDice': 'Ritira {d} con Il Grande Formaggio',
  'bc.hintBidMine': 'Offri tirapiedi per {card}, passa, o gioca un Veto se ce l\'hai.',
  'bc.hintBid': 'Asta per {card}.',
  'bc.hintRollMine': 'Tieni il tiro, o gioca Il Grande Formaggio per ritirare.',
  'bc.hintRoll': 'Un tiro attende il suo proprietario.',
  'roll.polyhedral': 'il d{sides} fa {d}',
  'roll.d6': 'il d6 fa {d}: {d} × {value} = {pay}',
  'roll.best-of-two': '2d6 fanno {dice}: il migliore {best} × {value} = {pay}',
  'roll.half-of-n': '{value}d6 fanno {dice}: i {half} migliori sommano {sum}, × 2 = {pay}',
  'roll.no-dice': 'vale il suo valore {value}',

  /* The Great Dalmuti at the table: ranks, roles, phases, the trick, the prompts */
  'dal.promptLead': 'Apri tu: gioca un set di carte dello stesso rango (i Giullari sono jolly).',
  'dal.promptFollow': {
    one: 'Batti {set}: gioca 1 carta di rango migliore (numero più basso), oppure passa.',
    other: 'Batti {set}: gioca {n} carte di rango migliore (numero più basso), oppure passa.',
  },
  'dal.keys': 'frecce o il numero di un rango per spostarsi, Spazio sceglie una carta, Invio gioca',
  'dal.ranks': [
    '',
    'Dalmuti',
    'Arcivescovo',
    'Conte',
    'Baronessa',
    'Badessa',
    'Cavaliere',
    'Sarta',
    'Scalpellino',
    'Cuoca',
    'Pastorella',
    'Minatore',
    'Contadino',
    'Giullare',
  ],
  'role.greater-dalmuti': 'Grande Dalmuti',
  'role.lesser-dalmuti': 'Piccolo Dalmuti',
  'role.merchant': 'Mercante',
  'role.lesser-peon': 'Piccolo Peone',
  'role.greater-peon': 'Grande Peone',
  'phase.seat-new': 'Il Grande Dalmuti fa sedere il nuovo arrivato sopra o sotto il centro.',
  'phase.revolution': 'Hai entrambi i Giullari: dichiari la Rivoluzione?',
  'phase.greater-tax': 'Il Grande Dalmuti sceglie 2 carte da dare al Grande Peone.',
  'phase.lesser-tax': 'Il Piccolo Dalmuti sceglie 1 carta da dare al Piccolo Peone.',
  'phase.market': 'Il primo mercante può scambiare con un mercante.',
  'phase.market-return': 'Il mercante scelto restituisce una carta.',
  'phase.play': 'Gioca un set migliore con tante carte quante l\'ultima giocata, o passa.',
  'phase.over': 'La sessione è finita.',
  'dal.handNo': 'Mano {n} di {of}',
  'dal.target': { one: 'o primo a {n} punto', other: 'o primo a {n} punti' },
  'dal.yourHand': 'La tua mano',
  'dal.noCards': 'Nessuna carta.',
  'dal.revPending': 'Qualcuno ha entrambi i Giullari e decide se fare la Rivoluzione.',
  'dal.revDeclared': '{who} ha dichiarato la Rivoluzione: niente tasse in questa mano.',
  'dal.revGreat': '{who} (Grande Peone) ha dichiarato la Grande Rivoluzione: le classi sociali si invertono!',
  'dal.revDeclined': 'Nessuna rivoluzione dichiarata.',
  'dal.noTaxes': 'Niente tasse in questa mano.',
  'dal.noTrick': 'Nuovo giro: chi apre gioca un set qualsiasi.',
  'dal.toBeat': 'Da battere (giocato da {who}):',
  'dal.passedSince': 'Hanno passato: {who}',
  'dal.exTax': { one: '{from} ha dato 1 carta a {to} come tasse', other: '{from} ha dato {n} carte a {to} come tasse' },
  'dal.exMarket': {
    one: '{from} ha dato 1 carta a {to} al mercato',
    other: '{from} ha dato {n} carte a {to} al mercato',
  },
  'dal.youGave': 'Hai dato {cards} a {to}',
  'dal.youGot': '{from} ti ha dato {cards}',
  'dal.willGive': 'Darai: {cards}',
  'dal.cardsLeft': { one: '{n} carta', other: '{n} carte' },
  'dal.pos': 'gioca per {n}° nel giro',
  'dal.points': { one: '{n} punto', other: '{n} punti' },
  'dal.play': 'Gioca',
  'dal.pass': 'Passa',
  'dal.pickPlay': 'Scegli le carte per fare un set (i Giullari sono jolly).',
  'dal.notLegal': 'Questo set non si può giocare ora.',
  'dal.give': 'Dai',
  'dal.giveHint': { one: 'Scegli 1 carta da dare a {who}.', other: 'Scegli {n} carte da dare a {who}.' },
  'dal.revolution': '✊ Dichiara la Rivoluzione',
  'dal.noRevolution': 'Taci',
  'dal.marketTo': 'Dai la carta scelta a {who}',
  'dal.cannotBeat': 'Niente di tuo la batte',
  'dal.clear': 'Rimetti a posto le carte',

  /* The rules in short (the table’s side column) */
  'rules.title': 'Regole in breve',
  'rules.bigcheese': [
    'Siete topi in lotta per il Grande Formaggio. Ognuno comincia con dei tirapiedi da far lavorare sui progetti.',
    'La prima carta del mazzo scoperto va all\'asta. Dal primo di mano, a turno si offre più dell\'offerta più alta ' +
    '(al massimo i propri tirapiedi liberi) o si passa; chi passa è fuori da quest\'asta.',
    'Chi vince mette i tirapiedi offerti sulla carta: un nuovo progetto. Poi ogni altro progetto restituisce un ' +
    'tirapiedi al proprietario. Un progetto senza tirapiedi è terminato.',
    'Quindi i tirapiedi su un progetto sono le aste che mancano prima che paghi. Un\'offerta alta tiene occupati i ' +
    'tuoi tirapiedi a lungo.',
    'Una carta numerica terminata fa guadagnare punti con i dadi (di norma il dado della carta) e va negli scarti. ' +
    'Un Veto o Il Grande Formaggio terminato va in mano.',
    'Veto: al tuo turno d\'asta, invece di offrire, scarta la carta all\'asta. Nient\'altro si muove.',
    'Il Grande Formaggio: dopo un tiro su un tuo progetto, giocalo per ritirare (devi tenere il nuovo tiro).',
    'Se tutti passano, la carta va negli scarti. Vince il primo che raggiunge l\'obiettivo (a pari merito: punti ' +
    'più alti, poi più progetti pagati).',
  ],
  'rules.dalmuti': [
    'Le carte vanno dal rango 1 (Dalmuti, la migliore, una sola copia) al 12 (Contadino, dodici copie). Due ' +
    'Giullari: da soli valgono 13, con altre carte ne prendono il rango.',
    'Le classi sociali seguono l\'ordine d\'uscita della mano precedente: 👑 Grande Dalmuti, Piccolo Dalmuti, ' +
    'mercanti, Piccolo Peone, 👒 Grande Peone.',
    'Tasse: il Grande Peone dà le sue 2 carte migliori al Grande Dalmuti, che gli restituisce 2 carte a scelta; ' +
    'Piccolo Peone e Piccolo Dalmuti ne scambiano 1.',
    'Chi ha entrambi i Giullari può dichiarare la Rivoluzione: niente tasse. Se è il Grande Peone, è la Grande ' +
    'Rivoluzione: le classi si invertono.',
    'Il Grande Dalmuti apre con un set qualsiasi: una o più carte dello stesso rango. Ogni giocata seguente ha lo ' +
    'stesso numero di carte e un rango migliore (più basso).',
    'Puoi passare e giocare più tardi nello stesso giro. Quando tutti gli altri hanno passato, chi ha giocato per ' +
    'ultimo apre un nuovo giro.',
    'Liberati per primo di tutte le carte! Chi esce guadagna 1 punto per ogni giocatore ancora in gioco. L\'ordine ' +
    'd\'uscita dà le classi della mano seguente.',
  ],

  /* Chat and rematch (the table page) */
  'social.rematchAsked': 'È stata chiesta una rivincita: stessi posti, stessi giocatori, nuova distribuzione.',
  'social.rematchJoin': 'Vai alla rivincita',
  'social.rematchStay': 'Resta qui',
  'social.rematchGo': 'Questo tavolo ha una rivincita: vai al tuo posto',
  'social.rematchWatch': 'Questo tavolo ha una rivincita: guardala',
  'chat.title': 'Chat',
  'chat.placeholder': 'Scrivi qualcosa…',
  'chat.label': 'Messaggio in chat',
  'chat.send': 'Invia',
  'chat.empty': 'Ancora nessun messaggio.',
  'chat.spectator': 'Uno spettatore',
  'chat.emotes': 'Emoticon',
  'chat.emote.hi': 'Ciao!',
  'chat.emote.gg': 'Bella partita',
  'chat.emote.wp': 'Ben giocato',
  'chat.emote.thanks': 'Grazie',
  'chat.emote.oops': 'Ops',
  'chat.emote.wow': 'Wow',
  'chat.emote.think': 'Ci penso…',
  'chat.emote.laugh': 'Ah ah',

  /* Game events, one template per kind: {field} is the event’s field, seats by name, cards by name */
  'ev.and': ' e ',
  'ev.side.above': 'sopra',
  'ev.side.below': 'sotto',
  'ev.bigcheese.shuffled': 'Mazzo mescolato: {cards} carte, in cima {top}; apre {leader}.',
  'ev.bigcheese.auction': 'Asta per {card}: apre {leader}.',
  'ev.bigcheese.reshuffled': {
    n: 'cards',
    one: 'Mazzo finito: 1 scarto rimescolato in un nuovo mazzo.',
    other: 'Mazzo finito: {cards} scarti rimescolati in un nuovo mazzo.',
  },
  'ev.bigcheese.stuck': 'Nessuna carta può più essere scoperta: la partita finisce senza vincitori.',
  'ev.bigcheese.nothing-to-reveal': 'Niente da scoprire: ogni progetto avanza di un passo.',
  'ev.bigcheese.to-hand': '{card} di {owner} arriva al termine: va in mano a {owner}.',
  'ev.bigcheese.hire': {
    n: 'chips',
    one:
      'Il Grande Formaggio di {owner} arriva al termine: {owner} assume 1 tirapiedi ({hired} assunti, {total} in ' +
      'gioco).',
    other:
      'Il Grande Formaggio di {owner} arriva al termine: {owner} assume {chips} tirapiedi ({hired} assunti, {total} ' +
      'in gioco).',
  },
  'ev.bigcheese.roll': '{card} di {owner} arriva al termine: {roll}; {owner} può giocare Il Grande Formaggio.',
  'ev.bigcheese.payout': '{card} di {owner} arriva al termine: {roll}; {owner} guadagna {amount} (totale {total}).',
  'ev.bigcheese.payout-ignored':
    '{card} di {owner} arriva al termine: {roll}; {amount} supererebbe l\'obiettivo esatto {target}: ignorato, ' +
    '{card} scartato.',
  'ev.bigcheese.keep': '{owner} tiene il tiro e guadagna {amount} (totale {total}).',
  'ev.bigcheese.keep-ignored':
    '{owner} tiene il tiro: {amount} supererebbe l\'obiettivo esatto {target}: ignorato, {card} scartato.',
  'ev.bigcheese.reroll': '{owner} gioca Il Grande Formaggio e ritira: {roll}.',
  'ev.bigcheese.bid': '{seat} offre {amount}.',
  'ev.bigcheese.pass': '{seat} passa.',
  'ev.bigcheese.all-pass': 'Passano tutti: {card} scartato, nessun progetto avanza.',
  'ev.bigcheese.veto': '{seat} pone il Veto su {card}: offerte annullate, nessun progetto avanza.',
  'ev.bigcheese.take': {
    n: 'chips',
    one: '{seat} prende {card} per 1 tirapiedi.',
    other: '{seat} prende {card} per {chips} tirapiedi.',
  },
  'ev.bigcheese.win': {
    n: 'score',
    one: 'Vittoria di {winners} con {score} punto!',
    other: 'Vittoria di {winners} con {score} punti!',
  },
  'ev.bigcheese.tie-broken': '{tied} pareggiano con {score}: il dado fa {face}, vince {winner}.',
  'ev.dalmuti.role': '{seat} è {role}.',
  'ev.dalmuti.seating-draw': 'Estrazione dei posti: {draws}.',
  'ev.dalmuti.seating-redraw': 'Pareggio, si pesca di nuovo: {draws}.',
  'ev.dalmuti.joins': '{seat} si unisce alla partita.',
  'ev.dalmuti.sits': '{seat} si siede al posto {place} come {role}.',
  'ev.dalmuti.deal': 'Mano {number}: si distribuiscono le {cards} carte.',
  'ev.dalmuti.dealt': 'Ricevi: {hand}.',
  'ev.dalmuti.revolution-pending': 'Un giocatore ha entrambi i Giullari e può dichiarare la Rivoluzione.',
  'ev.dalmuti.both-jesters': 'Hai entrambi i Giullari: puoi dichiarare la Rivoluzione.',
  'ev.dalmuti.no-taxes': 'Niente tasse in questa mano.',
  'ev.dalmuti.tax-paid': {
    n: 'count',
    one: '{from} paga 1 carta di tasse a {to}.',
    other: '{from} paga {count} carte di tasse a {to}.',
  },
  'ev.dalmuti.tax-returned': {
    n: 'count',
    one: '{from} restituisce 1 carta a {to}.',
    other: '{from} restituisce {count} carte a {to}.',
  },
  'ev.dalmuti.you-give': 'Dai {cards} a {to}.',
  'ev.dalmuti.you-get': '{from} ti dà {cards}.',
  'ev.dalmuti.leads': '{seat} apre il giro.',
  'ev.dalmuti.play': '{seat} gioca {play}.',
  'ev.dalmuti.pass': '{seat} passa.',
  'ev.dalmuti.out': '{seat} esce {place}° (+{points}).',
  'ev.dalmuti.last': '{seat} è ultimo (+0).',
  'ev.dalmuti.greater-peon-rises': 'Il Grande Peone {peon} sale: +1 al Grande Dalmuti {dalmuti}.',
  'ev.dalmuti.lesser-peon-rises': 'Il Piccolo Peone {peon} sale: +1 al Piccolo Dalmuti {dalmuti}.',
  'ev.dalmuti.elected': 'Il Grande Peone {seat} diventa Grande Dalmuti: +1.',
  'ev.dalmuti.hand-over': 'Mano {number} finita. Ordine di uscita: {order}. Punti: {scores}.',
  'ev.dalmuti.session-over': {
    n: 'hands',
    one: 'La partita finisce dopo 1 mano: vittoria di {winners}, punteggio {points}!',
    other: 'La partita finisce dopo {hands} mani: vittoria di {winners}, punteggio {points}!',
  },
  'ev.dalmuti.first-out': 'La mano è finita: vince {seat}, uscito per primo.',
  'ev.dalmuti.tax-chosen': '{seat} ha scelto le carte da restituire.',
  'ev.dalmuti.will-give': 'Darai {cards} al {role}.',
  'ev.dalmuti.market-return': '{from} restituisce una carta a {to} al mercato.',
  'ev.dalmuti.great-revolution': '{seat} dichiara la Grande Rivoluzione: tutte le classi si invertono!',
  'ev.dalmuti.revolution': '{seat} dichiara la Rivoluzione: niente tasse in questa mano.',
  'ev.dalmuti.declined': 'Non dichiari la Rivoluzione.',
  'ev.dalmuti.no-revolution': 'Nessuna Rivoluzione dichiarata.',
  'ev.dalmuti.market-trade': '{seat} scambia una carta con {partner} al mercato.',
  'ev.dalmuti.black-market': '{seat} e {partner} si pescano a vicenda una carta a caso (mercato nero).',
  'ev.dalmuti.black-market-draw': '{other} pesca il tuo {lost}; tu peschi il suo {got}.',
  'ev.dalmuti.no-trade': '{seat} rinuncia allo scambio al mercato.',
  'ev.dalmuti.seats-newcomer': '{seat} fa sedere il nuovo arrivato {side} il giocatore di mezzo.',

  /* The replay page */
  'replay.rules': 'versione delle regole {v}',
  'replay.slider': 'Mossa',
  'replay.title': 'Replay',
  'replay.moves': 'Mosse',
  'replay.step': 'Mossa {i} di {n}',
  'replay.start': 'Inizio della partita: premi ▶ per avanzare.',
  'replay.table': 'Pagina del tavolo',
  'replay.jump': 'Mossa',
  'replay.setup': 'Prima della prima mossa',
  'replay.auction': 'Asta {n}',
  'replay.hand': 'Mano {n}',
  'replay.trick': 'Mano {hand}, presa {n}',
  'replay.hands': 'Tutte le mani',
  'replay.noCards': 'nessuna carta',
  'replay.notOver': 'La partita non è ancora finita: il replay si apre alla fine.',

  /* The replay page: the analysis by the strongest bot */
  'an.title': 'Analisi del bot più forte',
  'an.intro':
    'Il bot di ricerca giudica ogni decisione dal punto di vista del giocatore in quel momento, mai dalle carte ' +
    'nascoste: il valore della mossa giocata contro la migliore che trova.',
  'an.start': 'Analizza questa partita',
  'an.again': 'Riprova',
  'an.queued': 'In attesa che finiscano altre analisi…',
  'an.running': 'Analisi della decisione {done} di {total}…',
  'an.progress': 'Avanzamento dell\'analisi',
  'an.failed': 'L\'analisi non è riuscita.',
  'an.unit':
    'I valori sono il piazzamento finale atteso (1 = primo): più basso è meglio. La perdita è quante posizioni la ' +
    'mossa giocata ha ceduto rispetto alla migliore trovata.',
  'an.summary': 'Riepilogo per giocatore',
  'an.player': 'Giocatore',
  'an.decisions': 'Decisioni',
  'an.meanLoss': 'Perdita media (posizioni)',
  'an.accuracy': 'Precisione',
  'an.label.good': 'buona',
  'an.label.inaccuracy': 'imprecisione',
  'an.label.mistake': 'errore',
  'an.label.blunder': 'svista grave',
  'an.graph': 'Grafico di valutazione',
  'an.graphAbout': 'Piazzamento finale atteso dopo ogni decisione del giocatore; più in alto è meglio.',
  'an.better': 'meglio',
  'an.worse': 'peggio',
  'an.axisMove': 'mossa',
  'an.graphLine':
    '{who}: posizione {from} dopo la mossa {a}, {to} dopo la mossa {b}; migliore {best}, peggiore {worst}.',
  'an.turning': 'Momenti decisivi',
  'an.noTurning': 'Nessuna grande oscillazione.',
  'an.turn': '{who}: da {from} a {to} ({table} dal tavolo, {choice} dalla scelta)',
  'an.list': 'Decisioni non buone',
  'an.allGood': 'Ogni decisione è stata buona.',
  'an.move': 'Mossa',
  'an.played': 'Giocata',
  'an.best': 'Migliore',
  'an.loss': 'Perdita (posizioni)',
  'an.label': 'Giudizio',
  'an.goto': 'Mostra la mossa {n} nella replica',

  /* The fairness check page */
  'verify.noFairness':
    'Questa registrazione non è del tavolo {want} a cui hai partecipato: non porta alcuna distribuzione equa, ' +
    'benché questo browser vi abbia contribuito.',
  'verify.notMine':
    'Questa registrazione non è del tavolo {want} a cui hai partecipato: il contributo di questo browser ({mine}) ' +
    'non è tra i suoi.',
  'verify.unverifiable':
    'La partita si riproduce e il suo esito corrisponde, ma niente mostra che il server abbia fissato il seme prima ' +
    'della partita: la registrazione non porta alcun impegno firmato dal server con la chiave che questo browser ' +
    'conosce.',
  'verify.otherTable': 'Questa registrazione non è del tavolo {want}: è del tavolo {got}.',
  'verify.otherCommitment':
    'Questa registrazione non è del tavolo {want} come l\'hai visto: il suo impegno {got} non è quello che questo ' +
    'browser ha ricevuto quando ti sei seduto ({shown}).',
  'verify.contribs': 'Contributi entrati nel seme',
  'verify.yours': 'il tuo: creato da questo browser quando ti sei seduto',
  'verify.title': 'Verifica di correttezza',
  'verify.intro':
    'Ogni mescolata, distribuzione e tiro di dado viene da un seme il cui hash è pubblicato alla creazione del ' +
    'tavolo. Incolla o carica la registrazione di una partita per controllare che il seme rivelato corrisponda ' +
    'all\'hash e riproduca tutta la partita.',
  'verify.file': 'File della registrazione:',
  'verify.fromTable': 'o un tavolo finito:',
  'verify.tablePh': 'id del tavolo',
  'verify.load': 'Carica',
  'verify.paste': 'Incolla qui la registrazione (JSON)',
  'verify.check': 'Verifica',
  'verify.empty': 'Incolla o carica prima una registrazione.',
  'verify.notJson': 'Non è un JSON valido:',
  'verify.good': 'La registrazione è corretta: la partita è stata regolare.',
  'verify.bad': 'La registrazione non torna.',
  'verify.checks': 'Cosa è stato verificato',
  'verify.chance': {
    one: '{n} mescolata, distribuzione o tiro riprodotto dal seme',
    other: '{n} mescolate, distribuzioni e tiri riprodotti dal seme',
  },
  'verify.mismatch': 'Prima differenza:',

  /* A tutorial: "Learn to play" in the lobby, and the coach of its table (tutorial.js) */
  'tutorial.learn': 'Impara a giocare: {game}',
  'tutorial.name': 'Apprendista',
  'coach.title': 'Partita guidata',
  'coach.step': 'passo {n}',
  'coach.deal': 'Una partita guidata su una distribuzione fissa, uguale per tutti e pubblicata: non conta per la classifica.',
  'coach.next': 'Ho capito',
  'coach.yourMove': 'Tocca a te: la partita ti aspetta.',
  'coach.hide': 'Nascondi i consigli',
  'coach.show': 'Mostra i consigli',
  'coach.real': 'Gioca una partita vera: {game}',
  'coach.d-welcome':
    'Ti diamo il benvenuto al Grande Dalmuti! I posti girano attorno al tavolo per classe sociale, dal Grande ' +
    'Dalmuti 👑 al Grande Peone 👒. Il tuo è evidenziato: cominci come Grande Peone, l\'ultimo di tutti.',
  'coach.d-cards':
    'La tua mano: il numero è il rango, e più basso è meglio (l\'1 è la carta migliore). I due Giullari (J) si ' +
    'uniscono a qualsiasi set e ne prendono il rango; da soli valgono 13. Liberati per primo di tutte le carte.',
  'coach.d-revolution':
    'Hai entrambi i Giullari! Puoi dichiarare la Rivoluzione. Da Grande Peone la tua è una Grande Rivoluzione: le ' +
    'classi si invertono e diventi il Grande Dalmuti; poi le tasse si pagano con le nuove classi. Oppure taci.',
  'coach.d-give':
    'Tasse: il Grande Peone dà le sue 2 carte migliori al Grande Dalmuti, che gliene restituisce 2 a scelta (i ' +
    'Piccoli ne scambiano 1). Sei il Grande Dalmuti: scegli 2 carte, le peggiori, e premi Dai.',
  'coach.d-taxes':
    'Le tasse sono pagate: il Grande Peone ha dato le sue 2 carte migliori al Grande Dalmuti e ne ha ricevute 2 a ' +
    'scelta del Dalmuti; il Piccolo Peone e il Piccolo Dalmuti ne hanno scambiata 1 allo stesso modo.',
  'coach.d-lead':
    'Apri tu: gioca un set qualsiasi, una carta o più carte dello stesso rango (un Giullare può unirsi). Scegli le ' +
    'carte nella mano, poi premi Gioca. Un set grande è difficile da battere.',
  'coach.d-beat':
    'Un set da battere: gioca altrettante carte di rango migliore (più basso). Oppure passa: passare non ti ' +
    'impedisce di giocare più tardi in questo giro.',
  'coach.d-trick': 'Tutti gli altri hanno passato: l\'ultimo set giocato vince il giro, e chi l\'ha giocato apre il successivo con un set qualsiasi.',
  'coach.d-out':
    '{who} ha giocato l\'ultima carta: esce al posto {place}. Chi esce guadagna 1 punto per ogni giocatore ancora ' +
    'in gioco, e l\'ordine d\'uscita dà le classi della mano seguente.',
  'coach.end-dalmuti':
    'La mano è finita! Una partita vera si gioca su più mani: le classi restano, quindi i Peoni pagano le tasse ai ' +
    'Dalmuti a ogni mano, finché non salgono.',
  'coach.b-welcome':
    'Ti diamo il benvenuto a The Big Cheese! La carta scoperta è il progetto all\'asta. Una carta numerica fa ' +
    'guadagnare punti quando il suo progetto è terminato: tira il suo dado (un 20 tira un dado da 20). Vince il ' +
    'primo a {target} punti.',
  'coach.b-chips':
    'Il tuo posto, evidenziato: i tuoi tirapiedi (🐭) sono ciò che offri. I tirapiedi offerti vanno sulla carta ' +
    'che prendi e tornano uno alla volta.',
  'coach.b-cheese':
    'Questa carta è Il Grande Formaggio. Non paga nulla, ma quando è terminata va in mano al proprietario: dopo un ' +
    'tiro su un tuo progetto puoi giocarla per ritirare il dado (tieni il nuovo tiro).',
  'coach.b-veto-card':
    'Questa carta è un Veto. Quando è terminata va in mano al proprietario; poi, al tuo turno d\'asta, puoi ' +
    'giocarla invece di offrire: la carta all\'asta va negli scarti e nulla avanza.',
  'coach.b-bid':
    'Tocca a te nell\'asta: offri più dell\'offerta più alta, al massimo i tuoi tirapiedi liberi (− e + la ' +
    'regolano), oppure passa. Chi passa è fuori da quest\'asta; l\'ultimo offerente rimasto prende la carta.',
  'coach.b-take':
    '{who} ha preso la carta: i tirapiedi offerti restano sopra, un nuovo progetto. Dopo ogni asta ogni altro ' +
    'progetto restituisce un tirapiedi; un progetto senza tirapiedi è terminato.',
  'coach.b-hand': 'Carta terminata: {card} va in mano a {who}, da giocare più tardi.',
  'coach.b-payout': 'Il progetto di {who} è terminato e paga: il suo dado è stato tirato, e {who} guadagna {amount}. La carta va negli scarti.',
  'coach.b-veto':
    'Hai un Veto: invece di offrire puoi giocarlo ora per scartare la carta all\'asta, offerte comprese. Tienilo ' +
    'per una carta che non devi lasciar prendere a un altro.',
  'coach.b-reroll':
    'Il tuo progetto è terminato e hai Il Grande Formaggio: tieni questo tiro, oppure gioca Il Grande Formaggio ' +
    'per ritirare. Il nuovo tiro va tenuto, quindi ritira un tiro basso.',
  'coach.end-bigcheese':
    'La partita è finita! Una partita vera si gioca a 40 punti in 4: offri per i progetti che pagano, tieni ' +
    'tirapiedi liberi per l\'asta seguente, e conserva un Veto per la carta da non lasciar andare.',
};
