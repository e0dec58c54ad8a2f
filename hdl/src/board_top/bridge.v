// board_bridge: the command bridge between the FTDI UART and one unit (hdl::board_top).
// Generic over the unit: IN_BITS / OUT_BITS are the unit's packed input / output vectors
// (ports in port-table order, first port at bit 0); the generated board_top slices them.
// The frame format, commands, replies and NAK reasons are documented in hdl/src/board_top.rs
// and modelled in golden_model::board_top.
module board_bridge #(
    parameter integer IN_BITS = 8,
    parameter integer OUT_BITS = 8,
    parameter integer DIV = 80,          // clock cycles per UART bit
    parameter integer STIM_AW = 8,       // stimulus / capture buffers hold 2**STIM_AW cycles
    parameter integer TIMEOUT = 100000,  // idle cycles that end a frame or a discarded burst
    parameter [31:0] UNIT_ID = 32'h0,    // FNV-1a of the unit's name and port table
    parameter integer RESET_BIT = -1,    // bit of the input vector that is the unit's reset
    // 1: lean bridge (lockstep only): no stimulus / capture buffers, no status counters, a reply
    // register of max(OUT_BYTES, 2) bytes; LOAD, RUN, READ_CAP and STATUS are NAKed UNSUPPORTED
    parameter integer LEAN = 0
) (
    input wire clock,
    input wire reset,
    input wire rx,
    output wire tx,
    output wire [IN_BITS-1:0] unit_in,
    input wire [OUT_BITS-1:0] unit_out,
    input wire unit_error,
    output wire unit_ce,
    output reg led_error,
    output reg led_nak,
    output reg led_free_run,
    output wire led_activity
);
    localparam integer IN_BYTES = (IN_BITS + 7) / 8;
    localparam integer OUT_BYTES = (OUT_BITS + 7) / 8;
    localparam integer MAX_PAY = IN_BYTES + 2;
    localparam integer PAY_BITS = MAX_PAY * 8;
    localparam integer STATUS_BYTES = 20;
    localparam integer TXP_MIN = LEAN ? 2 : STATUS_BYTES;  // NAK payload is 2 bytes
    localparam integer TXP_BYTES = OUT_BYTES > TXP_MIN ? OUT_BYTES : TXP_MIN;
    localparam integer TXP_BITS = TXP_BYTES * 8;
    localparam integer DEPTH = 1 << STIM_AW;
    localparam integer TW = $clog2(TIMEOUT + 1) + 1;
    // the unit's reset bit in the input vector (none: 0)
    localparam [IN_BITS-1:0] RESET_MASK = (RESET_BIT >= 0) ? ({{(IN_BITS-1){1'b0}}, 1'b1} << RESET_BIT) : {IN_BITS{1'b0}};

    localparam [7:0] SYNC = 8'hA5;
    localparam [15:0] IN_BITS16 = IN_BITS;
    localparam [15:0] OUT_BITS16 = OUT_BITS;
    localparam [7:0] STIM_AW8 = STIM_AW;
    // commands
    localparam [7:0] C_RESET = 8'h01, C_WRITE = 8'h02, C_STEP = 8'h03, C_READ_OUT = 8'h04,
                     C_LOAD = 8'h05, C_RUN = 8'h06, C_READ_CAP = 8'h07, C_STATUS = 8'h08;
    // replies
    localparam [7:0] R_ACK = 8'h80, R_NAK = 8'h81, R_OUTPUTS = 8'h82, R_STATUS = 8'h83,
                     R_CAPTURE = 8'h84;
    // NAK reasons
    localparam [7:0] N_BAD_CRC = 8'd1, N_BAD_LENGTH = 8'd2, N_UNKNOWN_CMD = 8'd3,
                     N_OVERLONG = 8'd4, N_FRAMING = 8'd5, N_TIMEOUT = 8'd6, N_BAD_SYNC = 8'd7,
                     N_BAD_ARG = 8'd8, N_OVERRUN = 8'd9, N_UNSUPPORTED = 8'd10;
    localparam integer SW = TXP_BITS < 160 ? TXP_BITS : 160;  // status bits in r_pay (all 160 if !LEAN)

    // parser / command states, one-hot: state X is `st[I_X]`, so every state test is one
    // flip-flop (binary-coded, `st == S_EXEC` etc. were a LUT level in every decision)
    localparam integer I_IDLE = 0, I_LEN = 1, I_CMD = 2, I_PAY = 3, I_CRC1 = 4, I_CRC2 = 5,
                       I_DISCARD = 6, I_EXEC = 7, I_STEP = 8, I_RUN_PRIME = 9, I_RUN = 10,
                       I_CAP_WAIT = 11, I_CAP_LOAD = 12, I_TX = 13, I_RUN_PRIME2 = 14, I_REPLY = 15;
    localparam integer NS = 16;
    localparam [NS-1:0] S_IDLE = 16'd1 << I_IDLE, S_LEN = 16'd1 << I_LEN, S_CMD = 16'd1 << I_CMD,
                        S_PAY = 16'd1 << I_PAY, S_CRC1 = 16'd1 << I_CRC1, S_CRC2 = 16'd1 << I_CRC2,
                        S_DISCARD = 16'd1 << I_DISCARD, S_EXEC = 16'd1 << I_EXEC, S_STEP = 16'd1 << I_STEP,
                        S_RUN_PRIME = 16'd1 << I_RUN_PRIME, S_RUN = 16'd1 << I_RUN, S_CAP_WAIT = 16'd1 << I_CAP_WAIT,
                        S_CAP_LOAD = 16'd1 << I_CAP_LOAD, S_TX = 16'd1 << I_TX, S_RUN_PRIME2 = 16'd1 << I_RUN_PRIME2,
                        S_REPLY = 16'd1 << I_REPLY;

    function [15:0] crc16(input [15:0] c, input [7:0] b);  // CRC-16/CCITT-FALSE, one byte
        integer i;
        reg [15:0] x;
        begin
            x = c ^ {b, 8'h00};
            for (i = 0; i < 8; i = i + 1)
                x = x[15] ? ({x[14:0], 1'b0} ^ 16'h1021) : {x[14:0], 1'b0};
            crc16 = x;
        end
    endfunction

    // ---- UART ----
    wire [7:0] rx_data, rx_next;
    wire rx_valid, rx_ferr, tx_busy;
    reg tx_go = 1'b0;
    reg [7:0] tx_byte = 8'd0;
    board_uart_rx #(.DIV(DIV)) uart_rx (.clock(clock), .reset(reset), .rx(rx),
        .data(rx_data), .valid(rx_valid), .frame_err(rx_ferr), .next_data(rx_next));
    board_uart_tx #(.DIV(DIV)) uart_tx (.clock(clock), .reset(reset), .data(tx_byte),
        .start(tx_go), .busy(tx_busy), .tx(tx));

    // ---- state ----
    reg [NS-1:0] st = S_IDLE;
    reg [7:0] len = 8'd0;            // payload length of the frame being parsed
    reg [7:0] left = 8'd0;           // payload bytes still to come
    reg [7:0] cmd = 8'd0;
    reg [15:0] crc = 16'hffff;
    reg [7:0] crc_hi = 8'd0;
    reg [PAY_BITS-1:0] pay = {PAY_BITS{1'b0}};  // payload, shifted in from the top
    reg [7:0] reason = 8'd0;         // NAK reason of the burst being discarded
    reg [7:0] last_reason = 8'd0;
    reg [TW-1:0] idle = {TW{1'b0}};  // cycles since the last received byte (saturating)
    reg overrun = 1'b0;              // a byte arrived while the bridge was busy
    // the unit's inputs: a register, so that every unit input comes straight from a flip-flop
    // (held between steps; loaded from the stimulus buffer while free-running)
    reg [IN_BITS-1:0] in_hold = RESET_MASK;
    reg ce = 1'b1;                   // comes up resetting the unit for one cycle
    reg ureset = 1'b1;               // the reset bit of in_hold is set: clear it next cycle
    reg button = 1'b1;               // that reset comes from the button (not counted as a cycle)
    reg run_on = 1'b0;
    reg [STIM_AW:0] run_n = {(STIM_AW+1){1'b0}};
    // n - 2 of the run, and "the capture word being written is the run's last" (registered:
    // the compare of `wr` with n - 1 is made one cycle ahead, off S_RUN's decision path)
    reg [STIM_AW:0] run_nm2 = {(STIM_AW+1){1'b0}};
    reg run_last = 1'b0;
    reg [STIM_AW:0] rd = {(STIM_AW+1){1'b0}};
    reg [STIM_AW:0] wr = {(STIM_AW+1){1'b0}};
    reg [31:0] cycles = 32'd0;
    reg [15:0] good = 16'd0, naks = 16'd0, ferrs = 16'd0;
    // reply being sent
    reg [7:0] r_type = 8'd0, r_len = 8'd0, r_left = 8'd0;
    reg [2:0] r_phase = 3'd0;        // 0 sync, 1 len, 2 type, 3 payload, 4 crc hi, 5 crc lo
    reg [15:0] r_crc = 16'hffff;
    reg [TXP_BITS-1:0] r_pay = {TXP_BITS{1'b0}};
    reg [15:0] act = 16'd0;          // activity LED stretch

    // ---- block RAM buffers for run N ----
    reg [IN_BITS-1:0] stim [0:DEPTH-1];
    reg [OUT_BITS-1:0] cap [0:DEPTH-1];
    reg [IN_BITS-1:0] stim_rdata = {IN_BITS{1'b0}};
    reg [OUT_BITS-1:0] cap_rdata = {OUT_BITS{1'b0}};
    reg stim_we = 1'b0;
    reg [STIM_AW-1:0] stim_wa = {STIM_AW{1'b0}};
    reg [STIM_AW-1:0] cap_ra = {STIM_AW{1'b0}};
    wire cap_we = ce & run_on;
    always @(posedge clock) begin
        if (stim_we) stim[stim_wa] <= pay[16 +: IN_BITS];
        stim_rdata <= stim[rd[STIM_AW-1:0]];
    end
    always @(posedge clock) begin
        if (cap_we) cap[wr[STIM_AW-1:0]] <= unit_out;
        cap_rdata <= cap[cap_ra];
    end

    assign unit_in = in_hold;
    assign unit_ce = ce;
    assign led_activity = act != 0;

    // payload fields (valid when the frame's length is the command's)
    wire [IN_BITS-1:0] pay_inputs = pay[16 +: IN_BITS];       // WRITE, STEP (len IN_BYTES), LOAD
    wire [15:0] pay_addr = pay[15:0];                           // LOAD (len IN_BYTES + 2)
    wire [15:0] pay_word = pay[PAY_BITS-16 +: 16];              // RUN, READ_CAP (len 2)
    // Argument and length checks, registered: the payload and the length are stable from
    // their last byte on, two byte times before S_EXEC reads these (cuts the 16-bit compares
    // out of S_EXEC's decision path: the bridge alone went from 79 to over 100 MHz).
    reg bad_load_addr = 1'b0, bad_run_n = 1'b0, bad_cap_addr = 1'b0;
    reg len_is_0 = 1'b0, len_is_2 = 1'b0, len_is_in = 1'b0, len_is_load = 1'b0;
    always @(posedge clock) begin
        bad_load_addr <= pay_addr >= DEPTH;
        bad_run_n <= (pay_word == 16'd0) || (pay_word > DEPTH);
        bad_cap_addr <= pay_word >= DEPTH;
        len_is_0 <= len == 8'd0;
        len_is_2 <= len == 8'd2;
        len_is_in <= len == IN_BYTES;
        len_is_load <= len == MAX_PAY;
    end
    // S_EXEC's decisions, registered: `cmd` (from its byte on), the `len_is_*` and `bad_*`
    // registers (one cycle after the length / the last payload byte) are stable from two byte
    // times before S_EXEC on, so in S_EXEC these hold the decision of the frame: NAK (`ex_nak`,
    // reason `ex_why`) or exactly one command's action (`ex_<command>`)
    reg ex_nak = 1'b0;
    reg [7:0] ex_why = 8'd0;
    reg ex_reset = 1'b0, ex_write = 1'b0, ex_step = 1'b0, ex_read_out = 1'b0, ex_load = 1'b0,
        ex_run = 1'b0, ex_read_cap = 1'b0, ex_status = 1'b0;
    // The command table: per command its length test, its argument test and whether the lean
    // bridge lacks it; one reason order for all (unknown, unsupported, length, argument)
    reg c_known, c_lean_no, c_len_ok, c_arg_bad;
    always @(*) begin
        c_known = 1'b1; c_lean_no = 1'b0; c_len_ok = 1'b0; c_arg_bad = 1'b0;
        case (cmd)
            C_RESET, C_READ_OUT: c_len_ok = len_is_0;
            C_WRITE, C_STEP: c_len_ok = len_is_in;
            C_LOAD: begin c_lean_no = 1'b1; c_len_ok = len_is_load; c_arg_bad = bad_load_addr; end
            C_RUN: begin c_lean_no = 1'b1; c_len_ok = len_is_2; c_arg_bad = bad_run_n; end
            C_READ_CAP: begin c_lean_no = 1'b1; c_len_ok = len_is_2; c_arg_bad = bad_cap_addr; end
            C_STATUS: begin c_lean_no = 1'b1; c_len_ok = len_is_0; end
            default: c_known = 1'b0;
        endcase
    end
    wire [7:0] c_why = !c_known ? N_UNKNOWN_CMD : (LEAN && c_lean_no) ? N_UNSUPPORTED :
                       !c_len_ok ? N_BAD_LENGTH : c_arg_bad ? N_BAD_ARG : 8'd0;
    wire c_ok = c_why == 8'd0;
    always @(posedge clock) begin
        ex_nak <= !c_ok;
        ex_why <= c_why;
        ex_reset <= c_ok && cmd == C_RESET;
        ex_write <= c_ok && cmd == C_WRITE;
        ex_step <= c_ok && cmd == C_STEP;
        ex_read_out <= c_ok && cmd == C_READ_OUT;
        ex_load <= c_ok && cmd == C_LOAD;
        ex_run <= c_ok && cmd == C_RUN;
        ex_read_cap <= c_ok && cmd == C_READ_CAP;
        ex_status <= c_ok && cmd == C_STATUS;
    end
    // read in S_REPLY, when `good` already counts the STATUS frame itself
    wire [159:0] status_word = {UNIT_ID, OUT_BITS16, IN_BITS16, STIM_AW8,
                                last_reason, ferrs, naks, good, cycles};
    wire in_parse = st[I_IDLE] || st[I_LEN] || st[I_CMD] || st[I_PAY] ||
                    st[I_CRC1] || st[I_CRC2] || st[I_DISCARD];
    // idle == TIMEOUT, kept as a register (set one cycle ahead from idle == TIMEOUT - 1)
    reg timed_out = (TIMEOUT == 0);
    wire [7:0] byte_in = rx_data;
    // The received byte's tests, registered: the receiver's `next_data` equals the byte of the
    // next `rx_valid` for at least six cycles before it, and `crc`, `crc_hi`, `left` change only
    // in the cycle after an `rx_valid`, so these registers hold the tests of `byte_in` (and of
    // `left`) in every cycle with `rx_valid` (the byte compares and the CRC step are off the
    // parser's decision paths)
    reg b_sync = 1'b0, b_over = 1'b0, b_crc_bad = 1'b0, left_0 = 1'b1, left_1 = 1'b0;
    reg [15:0] crc_next = 16'hffff;
    always @(posedge clock) begin
        b_sync <= rx_next == SYNC;
        b_over <= rx_next > MAX_PAY;
        b_crc_bad <= {crc_hi, rx_next} != crc;
        crc_next <= crc16(crc, rx_next);
        left_0 <= left == 8'd0;
        left_1 <= left == 8'd1;
    end

    // A reply is decided in one cycle (the parser's NAKs, S_EXEC, the end of a RUN) and built in
    // the next, S_REPLY, from registers only: the reply registers (`r_type`, `r_len`, `r_pay`,
    // `r_phase`) are loaded in S_REPLY, S_STEP and S_CAP_LOAD (each one source) and shifted in
    // S_TX, so their enables and data muxes are a few state flip-flops deep, not the decisions'
    // depth. A NAK's payload is {cmd, reason} with the reason kept in `last_reason`; `r_nak`
    // says "the reply decided is a NAK" (else STATUS if `ex_status`, else ACK {cmd}).
    reg r_nak = 1'b0;
    task nak(input [7:0] why);
        begin
            last_reason <= why;
            r_nak <= 1'b1;
            st <= S_REPLY;
        end
    endtask
    task ack;
        st <= S_REPLY;
    endtask

    initial begin
        led_error = 1'b0;
        led_nak = 1'b0;
        led_free_run = 1'b0;
    end

    always @(posedge clock) begin
        tx_go <= 1'b0;
        stim_we <= 1'b0;
        ce <= 1'b0;  // the unit's enable is high only in cycles a state below asks for
        if (ureset) begin
            in_hold <= in_hold & ~RESET_MASK;
            ureset <= 1'b0;
            button <= 1'b0;
        end
        if (rx_valid || rx_ferr || tx_go) act <= 16'hffff;
        else if (act != 0) act <= act - 1'b1;
        if (rx_valid || rx_ferr) begin
            idle <= {TW{1'b0}};
            timed_out <= (TIMEOUT == 0);
        end else if (!timed_out) begin
            idle <= idle + 1'b1;
            timed_out <= idle == TIMEOUT - 1;
        end
        if (rx_ferr) ferrs <= ferrs + 1'b1;
        if (ce && !button) cycles <= cycles + 1'b1;
        if (ce && unit_error) led_error <= 1'b1;
        if ((rx_valid || rx_ferr) && !in_parse) overrun <= 1'b1;
        if (reset) begin
            // the button: the unit is reset (enabled, reset bit high) while it is held
            st <= S_IDLE;
            ce <= 1'b1;
            ureset <= 1'b1;
            button <= 1'b1;
            run_on <= 1'b0;
            overrun <= 1'b0;
            in_hold <= RESET_MASK;
            led_error <= 1'b0;
            led_nak <= 1'b0;
            led_free_run <= 1'b0;
            cycles <= 32'd0;
            good <= 16'd0;
            naks <= 16'd0;
            ferrs <= 16'd0;
            last_reason <= 8'd0;
            r_nak <= 1'b0;
        end else begin
            (* parallel_case *) case (1'b1)
                // ---- frame parser: nothing but the parser's own registers changes here ----
                st[I_IDLE]: if (rx_ferr) begin
                        reason <= N_FRAMING; cmd <= 8'd0; st <= S_DISCARD;
                    end else if (rx_valid) begin
                        cmd <= 8'd0;
                        if (b_sync) begin crc <= 16'hffff; st <= S_LEN; end
                        else begin reason <= N_BAD_SYNC; st <= S_DISCARD; end
                    end
                st[I_LEN], st[I_CMD], st[I_PAY], st[I_CRC1], st[I_CRC2]:
                    if (rx_ferr) begin
                        reason <= N_FRAMING; st <= S_DISCARD;
                    end else if (rx_valid) begin
                        (* parallel_case *) case (1'b1)
                            st[I_LEN]: begin
                                len <= byte_in; left <= byte_in; crc <= crc_next;
                                if (b_over) begin reason <= N_OVERLONG; st <= S_DISCARD; end
                                else st <= S_CMD;
                            end
                            st[I_CMD]: begin
                                cmd <= byte_in; crc <= crc_next;
                                st <= left_0 ? S_CRC1 : S_PAY;
                            end
                            st[I_PAY]: begin
                                pay <= {byte_in, pay[PAY_BITS-1:8]}; crc <= crc_next;
                                left <= left - 1'b1;
                                if (left_1) st <= S_CRC1;
                            end
                            st[I_CRC1]: begin crc_hi <= byte_in; st <= S_CRC2; end
                            default: begin  // S_CRC2
                                if (b_crc_bad) nak(N_BAD_CRC);
                                else st <= S_EXEC;
                            end
                        endcase
                    end else if (timed_out) nak(N_TIMEOUT);
                st[I_DISCARD]: if (timed_out) nak(reason);
                // ---- a good frame: check command and length, then act ----
                st[I_EXEC]: if (ex_nak) nak(ex_why);
                    else begin
                        (* parallel_case *) case (1'b1)
                            ex_reset: begin
                                in_hold <= RESET_MASK; ce <= 1'b1; ureset <= 1'b1;
                                led_error <= 1'b0; led_nak <= 1'b0; led_free_run <= 1'b0;
                                good <= good + 1'b1; ack;
                            end
                            ex_write: begin
                                in_hold <= pay_inputs; good <= good + 1'b1; ack;
                            end
                            ex_step: begin
                                in_hold <= pay_inputs; ce <= 1'b1; led_free_run <= 1'b0;
                                good <= good + 1'b1; st <= S_STEP;
                            end
                            ex_read_out: begin  // S_STEP without the enable: the held outputs
                                good <= good + 1'b1; st <= S_STEP;
                            end
                            ex_load: begin
                                stim_we <= 1'b1; stim_wa <= pay_addr[STIM_AW-1:0];
                                good <= good + 1'b1; ack;
                            end
                            ex_run: begin
                                run_n <= pay_word[STIM_AW:0]; rd <= {(STIM_AW+1){1'b0}};
                                run_nm2 <= pay_word[STIM_AW:0] - 2'd2;
                                led_free_run <= 1'b1; good <= good + 1'b1; st <= S_RUN_PRIME;
                            end
                            ex_read_cap: begin
                                cap_ra <= pay_word[STIM_AW-1:0]; good <= good + 1'b1; st <= S_CAP_WAIT;
                            end
                            ex_status: begin
                                good <= good + 1'b1; st <= S_REPLY;
                            end
                            default: ;
                        endcase
                    end
                // lockstep (STEP): the enable is high in this cycle only; reply with the outputs
                // seen before this cycle's edge (READ_OUT: no enable, the held outputs)
                st[I_STEP]: begin
                    r_type <= R_OUTPUTS; r_len <= OUT_BYTES;
                    r_pay <= {TXP_BITS{1'b0}}; r_pay[OUT_BITS-1:0] <= unit_out; r_phase <= 3'd0;
                    st <= S_TX;
                end
                // free-running: stimulus word k is read two cycles before the unit's k-th
                // enabled cycle, loaded into in_hold one cycle before it, and the outputs of
                // that cycle are written to capture word k
                // (unreachable in the lean bridge; the constant LEAN cuts the buffers' read
                // data out of in_hold and r_pay, so yosys drops the buffers)
                st[I_RUN_PRIME]: if (!LEAN) begin
                    rd <= rd + 1'b1;
                    st <= S_RUN_PRIME2;
                end
                st[I_RUN_PRIME2]: if (!LEAN) begin
                    in_hold <= stim_rdata; rd <= rd + 1'b1; wr <= {(STIM_AW+1){1'b0}};
                    ce <= 1'b1; run_on <= 1'b1;
                    run_last <= run_n == {{STIM_AW{1'b0}}, 1'b1};
                    st <= S_RUN;
                end
                st[I_RUN]: if (!LEAN) begin
                    rd <= rd + 1'b1; wr <= wr + 1'b1;
                    run_last <= wr == run_nm2;
                    if (run_last) begin run_on <= 1'b0; ack; end
                    else begin in_hold <= stim_rdata; ce <= 1'b1; end
                end
                st[I_CAP_WAIT]: st <= S_CAP_LOAD;
                st[I_CAP_LOAD]: if (!LEAN) begin
                    r_type <= R_CAPTURE; r_len <= OUT_BYTES;
                    r_pay <= {TXP_BITS{1'b0}}; r_pay[OUT_BITS-1:0] <= cap_rdata; r_phase <= 3'd0;
                    st <= S_TX;
                end
                // ---- reply: ACK, NAK or STATUS as decided the cycle before ----
                st[I_REPLY]: begin
                    r_phase <= 3'd0; st <= S_TX;
                    r_pay <= {TXP_BITS{1'b0}};
                    if (r_nak) begin
                        r_type <= R_NAK; r_len <= 8'd2; r_pay[15:0] <= {cmd, last_reason};
                        naks <= naks + 1'b1; led_nak <= 1'b1; r_nak <= 1'b0;
                    end else if (!LEAN && ex_status) begin
                        // (`ex_status` is still the S_EXEC decision: cmd and length are held)
                        r_type <= R_STATUS; r_len <= STATUS_BYTES;
                        r_pay[SW-1:0] <= status_word[SW-1:0];
                    end else begin
                        r_type <= R_ACK; r_len <= 8'd1; r_pay[7:0] <= cmd;
                    end
                end
                // ---- reply: sync, length, type, payload (LSB first), CRC-16 ----
                st[I_TX]: begin
                    if (!tx_busy && !tx_go) begin
                        tx_go <= 1'b1;
                        case (r_phase)
                            3'd0: begin tx_byte <= SYNC; r_crc <= 16'hffff; r_phase <= 3'd1; end
                            3'd1: begin tx_byte <= r_len; r_crc <= crc16(r_crc, r_len); r_phase <= 3'd2; r_left <= r_len; end
                            3'd2: begin tx_byte <= r_type; r_crc <= crc16(r_crc, r_type);
                                        r_phase <= (r_left == 0) ? 3'd4 : 3'd3; end
                            3'd3: begin
                                tx_byte <= r_pay[7:0]; r_crc <= crc16(r_crc, r_pay[7:0]);
                                r_pay <= {8'd0, r_pay[TXP_BITS-1:8]}; r_left <= r_left - 1'b1;
                                if (r_left == 8'd1) r_phase <= 3'd4;
                            end
                            3'd4: begin tx_byte <= r_crc[15:8]; r_phase <= 3'd5; end
                            default: begin
                                tx_byte <= r_crc[7:0];
                                if (overrun) begin
                                    overrun <= 1'b0; reason <= N_OVERRUN; cmd <= 8'd0;
                                    st <= S_DISCARD;
                                end else st <= S_IDLE;
                            end
                        endcase
                    end
                end
                default: st <= S_IDLE;
            endcase
        end
    end
endmodule
