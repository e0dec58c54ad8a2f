// board_uart_rx / board_uart_tx: 8N1 UART for the board bridge (hdl::board_top).
// DIV clock cycles per bit (clock / baud), a build parameter; DIV >= 8.

// Receiver: two-flip-flop synchronizer on rx, start bit found at the clock rate, every bit
// decided by the majority of three consecutive synchronized samples at the bit's centre.
// A stop bit read as 0 strobes frame_err (no valid) and the receiver waits for the line to go
// high again before it looks for the next start bit. A start bit that is high again at its
// centre is a glitch and is ignored.
module board_uart_rx #(parameter integer DIV = 80) (
    input wire clock,
    input wire reset,
    input wire rx,
    output reg [7:0] data,
    output reg valid,
    output reg frame_err,
    // the byte being received: equals `data` of the next `valid` from the stop bit's start on
    // (DIV - 2 >= 6 cycles before it), so a reader can decode it one cycle ahead
    output wire [7:0] next_data
);
    localparam integer CW = $clog2(DIV + 2) + 1;
    localparam [2:0] IDLE = 3'd0, START = 3'd1, DATA = 3'd2, STOP = 3'd3, WAIT_HIGH = 3'd4;
    reg rx_meta = 1'b1;
    reg rx_sync = 1'b1;
    reg [2:0] hist = 3'b111;
    reg [2:0] state = IDLE;
    reg [CW-1:0] count = {CW{1'b0}};
    reg [2:0] nbit = 3'd0;
    reg [7:0] shift = 8'd0;
    assign next_data = shift;
    wire vote = (hist[0] & hist[1]) | (hist[0] & hist[2]) | (hist[1] & hist[2]);
    initial begin
        data = 8'd0;
        valid = 1'b0;
        frame_err = 1'b0;
    end
    always @(posedge clock) begin
        rx_meta <= rx;
        rx_sync <= rx_meta;
        hist <= {hist[1:0], rx_sync};
        valid <= 1'b0;
        frame_err <= 1'b0;
        if (reset) begin
            state <= IDLE;
        end else begin
            case (state)
                IDLE: if (!rx_sync) begin
                    // the vote window lags the line by about four cycles: centre of the start bit
                    count <= DIV / 2 + 1;
                    state <= START;
                end
                START: if (count != 0) count <= count - 1'b1;
                    else if (!vote) begin
                        count <= DIV - 1;
                        nbit <= 3'd0;
                        state <= DATA;
                    end else state <= IDLE;
                DATA: if (count != 0) count <= count - 1'b1;
                    else begin
                        shift <= {vote, shift[7:1]};
                        count <= DIV - 1;
                        nbit <= nbit + 1'b1;
                        // the stop bit is decided two cycles before its centre: the vote
                        // lags the line by four cycles, and back to back the next start bit
                        // begins half a bit after the centre (at 8 cycles per bit and -2 %
                        // baud error, deciding at the centre found that start bit late)
                        if (nbit == 3'd7) begin
                            state <= STOP;
                            count <= DIV - 3;
                        end
                    end
                STOP: if (count != 0) count <= count - 1'b1;
                    else if (vote) begin
                        data <= shift;
                        valid <= 1'b1;
                        state <= IDLE;
                    end else begin
                        frame_err <= 1'b1;
                        state <= WAIT_HIGH;
                    end
                WAIT_HIGH: if (vote && rx_sync) state <= IDLE;
                default: state <= IDLE;
            endcase
        end
    end
endmodule

// Transmitter: start pulses while !busy load a byte; start bit, 8 data bits LSB first, stop bit,
// each exactly DIV cycles. busy rises the cycle after start and falls the cycle after the stop
// bit's last cycle, so a start in that cycle sends the next byte back to back.
module board_uart_tx #(parameter integer DIV = 80) (
    input wire clock,
    input wire reset,
    input wire [7:0] data,
    input wire start,
    output wire busy,
    output reg tx
);
    localparam integer CW = $clog2(DIV) + 1;
    reg [8:0] shift = 9'h1ff;
    reg [3:0] left = 4'd0;
    reg [CW-1:0] count = {CW{1'b0}};
    // busy = (count != 0) || (left != 0), kept as a register (the next values' test, made
    // with the update: off the path from busy into the bridge's reply decisions)
    reg busy_q = 1'b0;
    assign busy = busy_q;
    initial tx = 1'b1;
    always @(posedge clock) begin
        if (reset) begin
            left <= 4'd0;
            count <= {CW{1'b0}};
            tx <= 1'b1;
            busy_q <= 1'b0;
        end else if (count != 0) begin
            count <= count - 1'b1;
            busy_q <= (count != 1) || (left != 0);
        end else if (left != 0) begin
            tx <= shift[0];
            shift <= {1'b1, shift[8:1]};
            left <= left - 1'b1;
            count <= DIV - 1;
            busy_q <= 1'b1;
        end else if (start) begin
            tx <= 1'b0;
            shift <= {1'b1, data};
            left <= 4'd9;
            count <= DIV - 1;
            busy_q <= 1'b1;
        end
    end
endmodule
