import { Anchor } from '@mantine/core';
import { memo } from 'react';
import type { ChatSegment } from '../lib/chat-segments';
import classes from './chat-message-body.module.css';

/** A chat message's segments: text, emote images (alt = code), safe links and @mentions. */
export const ChatMessageBody = memo(function ChatMessageBody({
  segments,
  emoteHeight = 28,
}: {
  segments: ChatSegment[];
  emoteHeight?: number;
}) {
  return (
    <>
      {segments.map((segment, index) => {
        switch (segment.kind) {
          case 'text':
            return <span key={index}>{segment.text}</span>;
          case 'emote':
            return (
              <img
                key={index}
                className={classes.emote}
                src={segment.url}
                alt={segment.code}
                title={segment.code}
                loading="lazy"
                decoding="async"
                height={emoteHeight}
                style={{ height: emoteHeight }}
                data-emote-source={segment.source}
              />
            );
          case 'link':
            return (
              <Anchor key={index} href={segment.href} target="_blank" rel="noopener noreferrer" className={classes.link} fz="inherit">
                {segment.text}
              </Anchor>
            );
          case 'mention':
            return (
              <span key={index} className={segment.highlighted ? classes.mentionMe : classes.mention}>
                {segment.text}
              </span>
            );
          default:
            return null;
        }
      })}
    </>
  );
});
