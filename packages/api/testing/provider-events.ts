// Server-sent events of the providers' streams, written as the tests' local provider servers send them.

/** A server-sent event of OpenAI's chat completion stream, its delta as given. */
export const openaiEvent = (delta: object) =>
  `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] })}\n\n`;

/** A server-sent event of Anthropic's messages stream. */
export const anthropicEvent = (data: { type: string } & Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/** Anthropic's first event of a message. */
export const anthropicStart = anthropicEvent({
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
});

/** The headers of an event stream's answer. */
export const eventStream = { "content-type": "text/event-stream", "cache-control": "no-cache" };
